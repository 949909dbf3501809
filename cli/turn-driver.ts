import { readFileSync } from "node:fs";
import path from "node:path";
import { messageOf } from "../server/protocol/errors.ts";
import type { AnyBdkEvent } from "../server/protocol/events.ts";
import { selectedAgent } from "./agent-selection.ts";
import { type CommandIO, type ParsedArgs, stringFlag, UsageError } from "./command.ts";
import { consoleAsJsonLines } from "../server/host/logger.ts";
import { observabilityOptions } from "./observability-flags.ts";
import { RemoteAgent } from "./remote.ts";

export interface Decision {
  approved: boolean;
  reason?: string;
}

/**
 * Sends messages to one conversation, in-process or through `--url`, so
 * `run` and `chat` print the same whichever way they talk to the agent.
 */
export interface TurnDriver {
  /** Starts the conversation, or continues it after the first message; `workspaceFiles` are written before the turn. */
  send(message: string, workspaceFiles?: Record<string, string>): Promise<{ sessionId: string; turnId: string }>;
  /** Delivers the session's events from index 0 until `onEvent` returns true. */
  follow(sessionId: string, onEvent: (event: AnyBdkEvent) => boolean): Promise<void>;
  resolveApproval(sessionId: string, approvalId: string, decision: Decision): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * `--workspace-file path=file` (repeatable): the file's contents, read here,
 * become `path` in the session workspace (the server checks the path).
 */
export function readWorkspaceFileFlags(args: ParsedArgs, cwd: string): Record<string, string> | undefined {
  const values = (args.flags["workspace-file"] as string[] | undefined) ?? [];
  if (values.length === 0) return undefined;
  const files: Record<string, string> = {};
  for (const value of values) {
    const eq = value.indexOf("=");
    if (eq <= 0 || eq === value.length - 1) throw new UsageError(`--workspace-file expects path=file, got "${value}"`);
    const [target, source] = [value.slice(0, eq), value.slice(eq + 1)];
    try {
      files[target] = readFileSync(path.resolve(cwd, source), "utf8");
    } catch (error) {
      throw new UsageError(`--workspace-file ${value}: cannot read ${source} (${(error as NodeJS.ErrnoException).code ?? messageOf(error)})`);
    }
  }
  return files;
}

export async function openDriver(args: ParsedArgs, io: CommandIO): Promise<TurnDriver> {
  const url = stringFlag(args, "url");
  return url ? remoteDriver(url, args, io) : localDriver(args, io);
}

async function localDriver(args: ParsedArgs, io: CommandIO): Promise<TurnDriver> {
  const { logFormat, otel } = observabilityOptions(args);
  // stdout carries the command's output: console lines (a tool's console.log) join the log on stderr.
  const restoreConsole = logFormat === "json" ? consoleAsJsonLines((_level, line) => io.stderr.write(`${line}\n`)) : undefined;
  const { openSelectedAgent } = await import("../server/host/open-selected.ts");
  const stateRoot = stringFlag(args, "state-root");
  const opened = await openSelectedAgent(await selectedAgent(args, io), {
    stateRoot: stateRoot && path.resolve(io.cwd, stateRoot),
    env: io.env,
    model: stringFlag(args, "model"),
    // A one-shot run keeps stderr for the turn's own errors unless log lines are asked for.
    echo: logFormat ? (line) => io.stderr.write(`${line}\n`) : undefined,
    logFormat,
    otel,
  }).catch((error: unknown) => {
    restoreConsole?.();
    throw error;
  });
  const principal = { type: "user" as const, id: "local" };
  let sessionId = stringFlag(args, "session");
  return {
    async send(message, workspaceFiles) {
      const handle = await (sessionId
        ? opened.runtime.followUp(sessionId, { message, principal, workspaceFiles })
        : opened.runtime.startSession({ message, principal, channel: "cli", workspaceFiles }));
      sessionId = handle.sessionId;
      return { sessionId: handle.sessionId, turnId: handle.turnId };
    },
    follow(id, onEvent) {
      return opened.runtime.reader.followUntil(id, principal, 0, onEvent);
    },
    async resolveApproval(id, approvalId, decision) {
      return opened.runtime.inbox.resolveApproval(id, approvalId, decision, principal);
    },
    async close() {
      await opened.close();
      restoreConsole?.();
    },
  };
}

function remoteDriver(url: string, args: ParsedArgs, io: CommandIO): TurnDriver {
  if (stringFlag(args, "model")) throw new UsageError("--model applies to in-process runs; the server chose its model");
  for (const flag of ["log-format", "otel", "otel-content"]) {
    if (args.flags[flag] !== undefined && args.flags[flag] !== false) {
      throw new UsageError(`--${flag} applies to in-process runs; a server logs and exports its own (bdk serve --${flag})`);
    }
  }
  const remote = new RemoteAgent(url, stringFlag(args, "slug"), stringFlag(args, "token") ?? io.env.BDK_BEARER_TOKEN);
  let sessionId = stringFlag(args, "session");
  let token = stringFlag(args, "continuation-token");
  if (sessionId && !token) throw new UsageError("--session with --url needs --continuation-token");
  return {
    async send(message, workspaceFiles) {
      const answer = sessionId
        ? await remote.request<{ sessionId: string; turnId: string; continuationToken: string }>(
            "POST",
            `/session/${sessionId}`,
            { message, continuationToken: token, workspaceFiles },
          )
        : await remote.request<{ sessionId: string; turnId: string; continuationToken: string }>("POST", "/session", {
            message,
            workspaceFiles,
          });
      sessionId = answer.sessionId;
      token = answer.continuationToken;
      return answer;
    },
    follow: (id, onEvent) => remote.follow(id, 0, onEvent),
    resolveApproval: (id, approvalId, decision) =>
      remote.request("POST", `/session/${id}/approvals/${approvalId}`, decision),
    async close() {},
  };
}
