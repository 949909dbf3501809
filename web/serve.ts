import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { serverPolicies } from "../server/auth/policies.ts";
import { HttpHost, type MountedAgent } from "../server/http/http-host.ts";
import { connectPeerAgent } from "../server/mcp/peer.ts";
import { defaultStateRoot, openAgent, type OpenedAgent } from "../server/host/open-agent.ts";
import type { ToolOutcome } from "../server/harness/execute-tool.ts";
import { BdkError } from "../server/protocol/errors.ts";
import { watchForChanges } from "../server/host/hot-reload.ts";
import { formatLogLine, type LogFormat } from "../server/host/logger.ts";
import type { TelemetryFlags } from "../server/telemetry/settings.ts";
import type { ReminderInput, ReminderRecord } from "../server/authoring/types.ts";
import type { ReminderFiring } from "../server/reminders/fire-reminder.ts";
import type { Clock } from "../server/schedules/clock.ts";
import type { ScheduleDispatch } from "../server/schedules/dispatch-schedule.ts";
import { startWebServer } from "./start-web-server.ts";

export interface ServeOptions {
  host?: string;
  port?: number;
  mode?: "single" | "multi";
  dev?: boolean;
  /** `--bearer-token`: remote callers authenticate with `Authorization: Bearer <token>`. */
  authToken?: string | string[];
  allowAnonymous?: boolean;
  playground?: boolean;
  /** Serve the documentation pages at /docs (default true). */
  docs?: boolean;
  stateRoot?: string;
  /** `--database-url postgres://…`: sessions on Postgres, shared by every server given the same URL (one project only). */
  databaseUrl?: string;
  model?: string;
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
  /** How log lines look (`--log-format`); default text. */
  logFormat?: LogFormat;
  /** `--otel <url>` and `--otel-content`; the `OTEL_*` variables of `env` apply too. */
  otel?: TelemetryFlags;
  /** Fire schedules on their cron cadence (default true; never under `dev`). */
  schedules?: boolean;
  /** Time for schedules and reminders (tests inject a `ManualClock`). */
  clock?: Clock;
}

export interface ServeHandle {
  url: string;
  agents: MountedAgent[];
  close(): Promise<void>;
  send(message: string, options?: { slug?: string; title?: string }): Promise<{ id: string; continuationToken: string }>;
  callTool(name: string, input: unknown, options?: { slug?: string }): Promise<{ isError: boolean; result: unknown }>;
  /** A reminder bound to a channel conversation; see `host.reminders.create`. */
  createReminder(input: ReminderInput & { slug?: string }): Promise<ReminderRecord>;
  /** Fires a schedule now, as its cron would: `{ scheduleId, sessionIds }`. */
  dispatchSchedule(name: string, options?: { slug?: string }): Promise<ScheduleDispatch>;
  /** Fires an armed reminder now. */
  dispatchReminder(id: string, options?: { slug?: string }): Promise<ReminderFiring>;
}

const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const RESERVED = new Set(["v1", "playground", "docs"]);

function isProject(dir: string): boolean {
  return existsSync(path.join(dir, "bot")) || existsSync(path.join(dir, "agent"));
}

/** One project, or a folder whose immediate children are projects (each mounted at `/<slug>`). */
export function findProjects(dir: string): { slug: string; dir: string }[] {
  if (isProject(dir)) return [{ slug: slugOf(path.basename(dir)), dir }];
  const children = readdirSync(dir)
    .map((name) => path.join(dir, name))
    .filter((child) => statSync(child).isDirectory() && isProject(child));
  if (children.length === 0) {
    throw new BdkError("not_found", `${dir} has no bot/ folder and no child projects with one.`);
  }
  return children.map((child) => {
    const slug = path.basename(child);
    if (!SLUG.test(slug) || RESERVED.has(slug)) {
      throw new BdkError("invalid_request", `"${slug}" cannot be an agent slug: use [A-Za-z0-9][A-Za-z0-9_-]*, not v1/playground/docs.`);
    }
    return { slug, dir: child };
  });
}

function slugOf(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, "-").replace(/^[^A-Za-z0-9]+/, "");
  return cleaned && !RESERVED.has(cleaned) ? cleaned : "agent";
}

/** Serves one project or a folder of projects over HTTP with the playground. */
export async function serve(dir: string, options: ServeOptions = {}): Promise<ServeHandle> {
  // Before any agent opens: a token that could never work is a start-up error (a BearerTokenError).
  const policies = serverPolicies({
    bearerTokens: options.authToken === undefined ? [] : [options.authToken].flat(),
    allowAnonymous: options.allowAnonymous,
  });
  const root = path.resolve(dir);
  const projects = findProjects(root);
  const mode = options.mode ?? (isProject(root) ? "single" : "multi");
  const echo = options.log ?? (() => {});
  // Under --log-format json the host's own lines (the web build) are JSON too.
  const log =
    options.logFormat === "json" ? (line: string) => echo(formatLogLine({ level: "info", message: line }, "json")) : echo;
  const opened: OpenedAgent[] = [];
  // Peer MCP connections reach the other agents of this host (looked up when a client first opens).
  const bySlug = new Map<string, OpenedAgent>();
  try {
    const inFolder = projects.length > 1 || mode === "multi";
    if (options.databaseUrl && inFolder) {
      // The tables are not divided by agent: two agents on one database would see each other's sessions.
      throw new BdkError("invalid_request", `A database URL serves one project; ${root} is a folder of ${projects.length} (serve each with its own database).`);
    }
    for (const project of projects) {
      const stateRoot = inFolder ? path.join(options.stateRoot ?? defaultStateRoot(root), project.slug) : (options.stateRoot ?? defaultStateRoot(project.dir));
      opened.push(
        await openAgent(project.dir, {
          // A folder whose agent fails to load is refused naming that agent.
          slug: inFolder ? project.slug : undefined,
          stateRoot,
          databaseUrl: options.databaseUrl,
          env: options.env,
          dev: options.dev,
          model: options.model,
          echo,
          logFormat: options.logFormat,
          otel: options.otel,
          clock: options.clock,
          connectPeer: (peerSlug) => connectPeerAgent(bySlug, peerSlug, project.slug),
        }),
      );
      bySlug.set(project.slug, opened[opened.length - 1]);
    }
  } catch (error) {
    await Promise.all(opened.map((agent) => agent.close()));
    throw error;
  }
  const agents = projects.map((project, i) => ({ slug: project.slug, opened: opened[i] }));
  const httpHost = new HttpHost({
    agents,
    mode,
    dev: options.dev ?? false,
    policies,
    playground: options.playground ?? true,
    docs: options.docs ?? true,
  });
  const web = await startWebServer({ host: options.host ?? "127.0.0.1", port: options.port ?? 3000, httpHost, log });
  const stopWatching = options.dev ? opened.map((agent) => watchForChanges(agent)) : [];
  // Under --dev nothing fires on its own: the dev routes and this handle dispatch by hand.
  const close = async () => {
    for (const stop of stopWatching) stop();
    await web.close();
    await Promise.all(opened.map((agent) => agent.close()));
  };
  try {
    await Promise.all(opened.map((agent) => agent.automation.start({ schedules: !options.dev && options.schedules !== false, timers: !options.dev })));
  } catch (error) {
    await close();
    throw error;
  }

  const pick = (slug?: string): MountedAgent => {
    const found = slug ? agents.find((agent) => agent.slug === slug) : agents[0];
    if (!found) throw new BdkError("not_found", `No agent mounted at /${slug}.`);
    return found;
  };
  const principal = { type: "user" as const, id: "local" };

  return {
    url: web.url,
    agents,
    close,
    async send(message, sendOptions = {}) {
      const handle = await pick(sendOptions.slug).opened.runtime.startSession({ message, title: sendOptions.title, principal });
      return { id: handle.sessionId, continuationToken: handle.continuationToken };
    },
    async callTool(name, input, callOptions = {}) {
      const outcome: ToolOutcome = await pick(callOptions.slug).opened.runtime.tools.callTool(name, input, { principal });
      return { isError: outcome.isError, result: outcome.output };
    },
    async createReminder({ slug, ...input }) {
      return pick(slug).opened.automation.createReminder(input, principal);
    },
    async dispatchSchedule(name, dispatchOptions = {}) {
      return pick(dispatchOptions.slug).opened.automation.dispatchSchedule(name);
    },
    async dispatchReminder(id, dispatchOptions = {}) {
      return pick(dispatchOptions.slug).opened.automation.dispatchReminder(id);
    },
  };
}
