import path from "node:path";
import { agentErrors, describeDiagnostic, type Diagnostic } from "../discover/diagnostics.ts";
import type { ModelCandidate } from "../harness/run-turn.ts";
import { sandboxAvailable } from "../harness/builtin-tools/index.ts";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { loadAgent } from "../load/load-agent.ts";
import { McpConnections } from "../mcp/connections.ts";
import { DevOAuth, devAuthorizePath } from "../mcp/dev-oauth.ts";
import type { AgentConfig, ResolvedAgent } from "../load/types.ts";
import { effectiveModel, isModelUnavailableError, resolveModelChain } from "../models/index.ts";
import { messageOf } from "../protocol/errors.ts";
import { SessionRuntime } from "../sessions/session-runtime.ts";
import { ReminderBook } from "../reminders/reminder-book.ts";
import { type Clock, systemClock } from "../schedules/clock.ts";
import { type AsyncStore, asyncStore } from "../store/async-store.ts";
import { openStore } from "../store/index.ts";
import { AgentAutomation } from "./automation.ts";
import { envMilliseconds } from "./env-milliseconds.ts";
import { telemetrySettings, type TelemetryFlags } from "../telemetry/settings.ts";
import type { Telemetry } from "../telemetry/start-telemetry.ts";
import { createLogger, type LogFormat, type Logger, type StoringLogger } from "./logger.ts";
import { createHostServices } from "./services.ts";

export interface OpenAgentOptions {
  /** Default `<project>/.bdk/state`. */
  stateRoot?: string;
  /** `--database-url postgres://…`: sessions are stored there instead of the SQLite file under the state root. */
  databaseUrl?: string;
  env?: Record<string, string | undefined>;
  /** Dev mode: a missing model credential falls back to the scripted model, loudly. */
  dev?: boolean;
  /** `--model`: wins over BDK_MODEL and the agent's own setting. */
  model?: string;
  /** Where log lines go (the terminal of `bdk serve`). */
  echo?: (line: string) => void;
  /** How echoed lines look (`--log-format`); default text. */
  logFormat?: LogFormat;
  /** `--otel <url>` and `--otel-content`; the `OTEL_*` variables of `env` apply too. */
  otel?: TelemetryFlags;
  /** Time for schedules and reminders (tests inject a manual clock). */
  clock?: Clock;
  /** Reaches another agent mounted on this host, for peer MCP connections (`agent: "<slug>"`). */
  connectPeer?: (agentSlug: string) => Promise<Transport>;
  /** The agent's slug in a folder of agents: load errors name it with the folder. */
  slug?: string;
  /** Open even when some files have errors (`bdk call` of a tool that did load); the errors stay in `diagnostics`. */
  allowErrors?: boolean;
}

export interface OpenedAgent {
  agent: ResolvedAgent;
  runtime: SessionRuntime;
  /** Where sessions are stored: the SQLite file under the state root, or Postgres (`databaseUrl`). */
  store: AsyncStore;
  logger: StoringLogger;
  stateRoot: string;
  /** Channels, schedules and reminders. */
  automation: AgentAutomation;
  /** The agent's MCP clients (started on first use, closed by `close`). */
  mcp: McpConnections;
  /** `--dev` only: the playground's Connect flow for `oauth: true` connections. */
  devOAuth?: DevOAuth;
  /** Replaced on a hot reload. */
  diagnostics: Diagnostic[];
  /** `--dev` only (set by the watcher): reload `bot/` and `evals/` now; resolves once the new version is in. */
  reload?: () => Promise<void>;
  /** The model turns would use now, or why none can (for `info`). */
  effectiveModel(): { effective: string | null; unavailable?: string };
  close(): Promise<void>;
}

/** The agent cannot run: its errors (those of `evals/` excepted), under a line naming the agent (`agent "a" (/x/a)`). */
export class AgentLoadError extends Error {
  constructor(
    readonly diagnostics: Diagnostic[],
    agent = "the agent",
  ) {
    super(
      `${agent} has errors:\n${agentErrors(diagnostics)
        // The hint says what to do (install a package, fix a path), as `bdk validate` prints it.
        .map((diagnostic) => `  ${describeDiagnostic(diagnostic)}${diagnostic.hint ? `\n    ${diagnostic.hint}` : ""}`)
        .join("\n")}`,
    );
    this.name = "AgentLoadError";
  }
}

/** How errors name an agent: `agent "a" (/dir)` in a folder of agents, else `the agent in /dir`. */
export function agentLabel(dir: string, slug?: string): string {
  return slug ? `agent "${slug}" (${dir})` : `the agent in ${dir}`;
}

export function defaultStateRoot(projectDir: string): string {
  return path.join(projectDir, ".bdk", "state");
}

/**
 * Loads a project, opens its state store and recovers interrupted turns:
 * everything a command or a server needs to run sessions of one agent.
 */
export async function openAgent(projectDir: string, options: OpenAgentOptions = {}): Promise<OpenedAgent> {
  const dir = path.resolve(projectDir);
  const loaded = await loadAgent(dir);
  // Problems of evals/ stop `bdk eval`, not the agent; `allowErrors` opens despite the others too.
  if (!loaded.agent || (!options.allowErrors && agentErrors(loaded.diagnostics).length > 0)) {
    throw new AgentLoadError(loaded.diagnostics, agentLabel(dir, options.slug));
  }
  const agent = loaded.agent;
  if (agent.config.local?.sandbox && !sandboxAvailable()) {
    throw new Error(
      "local.sandbox is true in agent.ts, but bubblewrap is not available: install it (apt-get install bubblewrap) or set local.sandbox to false.",
    );
  }
  const stateRoot = path.resolve(options.stateRoot ?? defaultStateRoot(dir));
  const env = options.env ?? process.env;
  // Checked before anything opens: a bad value stops the start in one line.
  // `BDK_SESSION_LEASE_MS`: how long a session's lease lasts without a heartbeat (default DEFAULT_LEASE_MS, 5 s).
  const leaseMs = options.databaseUrl ? envMilliseconds(env, "BDK_SESSION_LEASE_MS", 300) : undefined;
  // The Postgres driver and its store load only when a database URL is set: a server on SQLite does without them.
  const pgStore = options.databaseUrl
    ? await (await import("../store/pg/store.ts")).openPgStore(options.databaseUrl, {
        // The logger is made over the store: warnings (a dropped LISTEN connection) come once it exists.
        appends: { listen: env.BDK_PG_LISTEN !== "off", warn: (message) => logger.warn(message) },
      })
    : undefined;
  const store: AsyncStore = pgStore ?? asyncStore(openStore(stateRoot));
  const logger = createLogger(store, options.echo, { format: options.logFormat, agent: agent.name });
  // On a shared database each session's turns run on one node at a time, under its lease.
  const leases = pgStore
    ? (await import("../sessions/pg-turn-leases.ts")).pgTurnLeases({ store: pgStore, logger, ttlMs: leaseMs })
    : undefined;
  const telemetry = await openTelemetry(env, options.otel ?? {}, agent, logger);

  const resolveModels = (config: Pick<AgentConfig, "model" | "modelFallbacks">, agentName: string): ModelCandidate[] =>
    resolveModelChain(config.model, config.modelFallbacks ?? [], {
      env,
      agentName,
      dev: options.dev,
      override: options.model,
    });
  if (options.dev) warnAboutScriptedFallback(resolveModels(agent.config, agent.name), logger, agent.name);

  const clock = options.clock ?? systemClock;
  const mcp = new McpConnections({
    agent: () => runtime.agent,
    env,
    logger,
    connectPeer: options.connectPeer,
    stateRoot,
    // Only a dev server has a playground with Connect: elsewhere nobody could end the wait.
    onAuthorizationRequired: options.dev
      ? ({ sessionId, toolCallId, connection }) =>
          void runtime
            .appendToCurrentTurn(sessionId, {
              type: "action.authorization_required",
              data: { toolCallId, connection, authorizePath: devAuthorizePath(connection) },
            })
            .catch((error: unknown) => logger.error(`Could not record that ${connection} needs authorization: ${messageOf(error)}`))
      : undefined,
  });
  const reminders = new ReminderBook({ store, agent: (): ResolvedAgent => runtime.agent, clock });
  const runtime: SessionRuntime = new SessionRuntime({
    agent,
    store,
    stateRoot,
    logger,
    resolveModels,
    isModelUnavailable: isModelUnavailableError,
    host: createHostServices({ agentName: agent.name, store, logger, env, reminders, mcp, metrics: telemetry?.metrics }),
    mcp,
    onSubagentEvent: telemetry?.subagentEvent,
    leases,
  });
  if (telemetry) runtime.reader.observe(telemetry.recorded);
  const automation = new AgentAutomation({ runtime, store, logger, env, dev: options.dev ?? false, clock, reminders });
  const recovered = await runtime.recover();
  if (recovered > 0) logger.warn(`Recovered ${recovered} interrupted turn(s) after a restart.`);

  return {
    agent,
    runtime,
    store,
    logger,
    stateRoot,
    automation,
    mcp,
    devOAuth: options.dev ? new DevOAuth({ agent: () => runtime.agent, stateRoot, mcp }) : undefined,
    diagnostics: loaded.diagnostics,
    effectiveModel: () =>
      effectiveModel(runtime.agent.config, { env, dev: options.dev, override: options.model, agentName: runtime.agent.name }),
    async close() {
      // Each step runs even when one before it failed (a database gone at shutdown): the turns, MCP servers
      // and the store are closed all the same, and the first failure is thrown once all have run.
      const failures: unknown[] = [];
      for (const step of [
        () => automation.close(),
        () => runtime.close(),
        // After the turns: a turn that was still calling an MCP tool has been stopped.
        () => mcp.close(),
        async () => telemetry?.shutdown(),
        () => logger.flush(),
        () => store.close(),
      ]) {
        await step().catch((error: unknown) => failures.push(error));
      }
      if (failures.length > 0) throw failures[0];
    },
  };
}

/**
 * OpenTelemetry when an endpoint is configured; otherwise undefined, and the
 * SDK is never loaded (an idle server does without it).
 */
async function openTelemetry(
  env: Record<string, string | undefined>,
  flags: TelemetryFlags,
  agent: ResolvedAgent,
  logger: Logger,
): Promise<Telemetry | undefined> {
  const { settings, warnings } = telemetrySettings(env, flags, { serviceName: agent.name });
  for (const warning of warnings) logger.warn(`OpenTelemetry: ${warning}`);
  if (!settings) return undefined;
  const { startTelemetry } = await import("../telemetry/start-telemetry.ts");
  return startTelemetry(settings, { agentName: agent.name, logger });
}

/** `bdk dev` without a credential runs the scripted model: say so once, loudly, at start. */
function warnAboutScriptedFallback(chain: ModelCandidate[], logger: Logger, agentName: string): void {
  const fallback = chain.find((candidate) => (candidate as { fellBackToScripted?: boolean }).fellBackToScripted) as
    | (ModelCandidate & { requestedId?: string; fallbackReason?: string })
    | undefined;
  if (!fallback) return;
  logger.warn(
    // Named: a folder of agents prints one line per agent.
    `${agentName}: using the offline scripted model instead of ${fallback.requestedId ?? "the configured model"}: ${(fallback.fallbackReason ?? "no credential is set.").replace(/\.?$/, ".")}`,
  );
}
