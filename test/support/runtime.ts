import { createLogger } from "../../server/host/logger.ts";
import type { ModelCandidate } from "../../server/harness/run-turn.ts";
import type { AgentConfig, ResolvedAgent } from "../../server/load/types.ts";
import { createScriptedModel } from "../../server/models/index.ts";
import { SessionRuntime, type SessionRuntimeOptions } from "../../server/sessions/session-runtime.ts";
import { asyncStore } from "../../server/store/async-store.ts";
import { openStore, type Store } from "../../server/store/index.ts";

export interface TestRuntime {
  runtime: SessionRuntime;
  store: Store;
  close(): Promise<void>;
}

/**
 * A SessionRuntime over a real store at `stateRoot`, on the scripted model
 * (optionally slowed per step) or on the models given.
 */
export function startTestRuntime(options: {
  stateRoot: string;
  agent: ResolvedAgent;
  stepDelayMs?: number;
  models?: ModelCandidate[];
  idleSessionsCached?: number;
  /** Sees the model settings every turn resolves (a fork's model override, for instance). */
  onResolve?: (config: Pick<AgentConfig, "model" | "modelFallbacks">) => void;
  /** The agent's MCP connections (none without). */
  mcp?: SessionRuntimeOptions["mcp"];
}): TestRuntime {
  const store = openStore(options.stateRoot);
  const logger = createLogger(asyncStore(store));
  const runtime = new SessionRuntime({
    agent: options.agent,
    store: asyncStore(store),
    stateRoot: options.stateRoot,
    logger,
    resolveModels: (config, agentName) => {
      options.onResolve?.(config);
      return options.models ?? [{ id: "scripted", model: createScriptedModel({ agentName, stepDelayMs: options.stepDelayMs }) }];
    },
    isModelUnavailable: () => false,
    idleSessionsCached: options.idleSessionsCached,
    mcp: options.mcp,
  });
  return {
    runtime,
    store,
    async close() {
      await runtime.close();
      await logger.flush();
      store.close();
    },
  };
}
