/**
 * What a fork runs differently from the agent as loaded: another model or
 * params, a verbatim system prompt, and tool stubs (a call of a stubbed tool
 * is answered with the given result; the tool itself never runs).
 */
import type { ModelSetting } from "../authoring/types.ts";
import type { AgentConfig, LoadedTool } from "../load/types.ts";
import { BdkError } from "../protocol/errors.ts";
import type { RunOverrides } from "../store/types.ts";

/** The model settings a turn resolves: the override's model (without fallbacks: it was chosen on purpose) or the agent's. */
export function modelConfigFor(config: AgentConfig, overrides: RunOverrides | undefined): Pick<AgentConfig, "model" | "modelFallbacks"> {
  if (!overrides || (overrides.model === undefined && overrides.params === undefined)) return config;
  const agentId = typeof config.model === "string" ? config.model : config.model?.id;
  const id = overrides.model ?? agentId;
  const params = overrides.params ?? (overrides.model === undefined && typeof config.model === "object" ? config.model.params : undefined);
  // No model anywhere: the default setting (and its params) applies, as it would without the override.
  if (id === undefined) return config;
  const model: ModelSetting = params ? { id, params } : id;
  return { model, modelFallbacks: overrides.model === undefined ? config.modelFallbacks : [] };
}

/** The turn's tools with the stubbed ones answering their given result. */
export function withToolStubs(tools: LoadedTool[], overrides: RunOverrides | undefined): LoadedTool[] {
  const stubs = overrides?.toolResults;
  if (!stubs || Object.keys(stubs).length === 0) return tools;
  return tools.map((tool) => {
    const stub = Object.hasOwn(stubs, tool.name) ? stubs[tool.name] : undefined;
    if (!stub) return tool;
    return {
      ...tool,
      stubbed: true,
      // Nothing runs, so nothing needs approval or a dry run.
      effect: () => "read",
      needsApproval: async () => false,
      async execute() {
        if (stub.isError) throw new Error(typeof stub.output === "string" ? stub.output : JSON.stringify(stub.output));
        return stub.output;
      },
    };
  });
}

/** Tool stubs name tools the turn would offer; a typo would otherwise silently run the real tool. */
export function checkToolStubs(overrides: RunOverrides, toolNames: readonly string[]): void {
  const unknown = Object.keys(overrides.toolResults ?? {}).filter((name) => !toolNames.includes(name));
  if (unknown.length > 0) {
    throw new BdkError(
      "invalid_request",
      `overrides.toolResults: no tool named ${unknown.map((name) => JSON.stringify(name)).join(", ")}. Tools: ${toolNames.join(", ")}.`,
    );
  }
}
