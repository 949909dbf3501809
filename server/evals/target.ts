/**
 * Where eval cases send their messages: the agent in this process
 * (`localTarget`) or a running server through its HTTP API (the CLI builds
 * that one for `--url`). The `t` API only talks to this interface.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { resolveInside } from "../harness/workspace.ts";
import type { OpenedAgent } from "../host/open-agent.ts";
import { BdkError } from "../protocol/errors.ts";
import type { AnyBdkEvent, Principal } from "../protocol/events.ts";

export interface EvalSendInput {
  message: string;
  /** Continue this session; absent: start a new eval session. */
  sessionId?: string;
  title?: string;
  dryRun: boolean;
  workspaceFiles?: Record<string, string>;
}

export interface EvalTarget {
  /** Starts (or continues) an eval session; resolves once the turn is accepted. */
  send(input: EvalSendInput): Promise<{ sessionId: string; turnId: string }>;
  /** Delivers the session's events from `fromIndex` in order until `onEvent` returns true. */
  follow(sessionId: string, fromIndex: number, onEvent: (event: AnyBdkEvent) => boolean): Promise<void>;
  resolveApproval(sessionId: string, approvalId: string, decision: { approved: boolean; reason?: string }): Promise<void>;
  /** Ends the session's running or parked turn (timeouts, cases that never approved). */
  stop(sessionId: string): Promise<void>;
}

export const EVAL_CHANNEL = "eval";
export const EVAL_PURPOSE = "eval";

/** The in-process target: eval sessions of `opened`'s runtime, owned by `principal`. */
export function localTarget(opened: Pick<OpenedAgent, "runtime" | "stateRoot">, principal: Principal): EvalTarget {
  const { runtime } = opened;
  return {
    async send({ message, sessionId, title, dryRun, workspaceFiles }) {
      const files = checkedWorkspaceFiles(workspaceFiles);
      const handle = sessionId
        ? runtime.followUp(sessionId, { message, principal })
        : runtime.startSession({ message, principal, title, purpose: EVAL_PURPOSE, dryRun, channel: EVAL_CHANNEL });
      // Written before yielding: the queued turn starts on a later tick, so it sees the files.
      writeWorkspaceFilesNow(opened, handle.sessionId, files);
      return { sessionId: handle.sessionId, turnId: handle.turnId };
    },
    follow(sessionId, fromIndex, onEvent) {
      return new Promise((resolve, reject) => {
        let finished = false;
        let unsubscribe: (() => void) | undefined;
        try {
          unsubscribe = runtime.follow(sessionId, principal, fromIndex, (events) => {
            for (const event of events) {
              if (finished || !onEvent(event)) continue;
              finished = true;
              queueMicrotask(() => unsubscribe?.());
              resolve();
            }
          });
        } catch (error) {
          reject(error);
          return;
        }
        if (finished) unsubscribe();
      });
    },
    async resolveApproval(sessionId, approvalId, decision) {
      runtime.resolveApproval(sessionId, approvalId, decision, principal);
    },
    async stop(sessionId) {
      runtime.stop(sessionId, principal);
    },
  };
}

function checkedWorkspaceFiles(files: Record<string, string> | undefined): Record<string, string> {
  for (const [relative, contents] of Object.entries(files ?? {})) {
    const segments = relative.split(/[\\/]/);
    if (typeof contents !== "string" || relative === "" || path.isAbsolute(relative) || segments.includes("..")) {
      throw new BdkError("invalid_request", `workspaceFiles: ${JSON.stringify(relative)} must be a relative path inside the workspace mapped to a string`);
    }
  }
  return files ?? {};
}

/**
 * The runtime does not take per-send files yet, so the eval target writes
 * them into the session workspace (the runtime's default location) itself.
 */
function writeWorkspaceFilesNow(opened: Pick<OpenedAgent, "runtime" | "stateRoot">, sessionId: string, files: Record<string, string>): void {
  if (Object.keys(files).length === 0) return;
  const dir = opened.runtime.agent.config.local?.workspaceDir ?? path.join(opened.stateRoot, "workspaces", sessionId);
  mkdirSync(dir, { recursive: true });
  for (const [relative, contents] of Object.entries(files)) {
    const target = resolveInside(dir, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, contents);
  }
}
