/**
 * What a fork runs differently from the agent as loaded: another model or
 * params, a verbatim system prompt, and tool stubs (a stubbed call is
 * answered with the given result; the tool itself never runs). A stub names
 * a tool (every call of it) or one call of a tool (`toolCallResults`: the
 * Nth call in the session, inherited calls included, so a call of the source
 * keeps its number in the fork; call ids cannot say it, since the re-run's
 * ids are new).
 */
import type { ModelSetting } from "../authoring/types.ts";
import type { AgentConfig, LoadedTool } from "../load/types.ts";
import { BdkError } from "../protocol/errors.ts";
import type { RunOverrides, ToolCallStub } from "../store/types.ts";

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

type StubResult = Pick<ToolCallStub, "output" | "isError">;

/** The tool answering `stub` instead of running. */
function stubbedTool(tool: LoadedTool, stub: StubResult): LoadedTool {
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
}

/** The turn's tools with the stubbed ones (or stubbed calls) answering their given result. */
export function withToolStubs(tools: LoadedTool[], overrides: RunOverrides | undefined): LoadedTool[] {
  const stubs = overrides?.toolResults ?? {};
  const callStubs = overrides?.toolCallResults ?? [];
  if (Object.keys(stubs).length === 0 && callStubs.length === 0) return tools;
  return tools.map((tool) => {
    const stub = Object.hasOwn(stubs, tool.name) ? stubs[tool.name] : undefined;
    const base = stub ? stubbedTool(tool, stub) : tool;
    const byCall = new Map(callStubs.filter((callStub) => callStub.name === tool.name).map((callStub) => [callStub.call, stubbedTool(tool, callStub)]));
    return byCall.size === 0 ? base : { ...base, stubFor: (call: number) => byCall.get(call) };
  });
}

/** Tool stubs name tools the turn would offer; a typo would otherwise silently run the real tool. */
export function checkToolStubs(overrides: RunOverrides, toolNames: readonly string[]): void {
  const named = {
    toolResults: Object.keys(overrides.toolResults ?? {}),
    toolCallResults: (overrides.toolCallResults ?? []).map((stub) => stub.name),
  };
  for (const [field, names] of Object.entries(named)) {
    const unknown = [...new Set(names.filter((name) => !toolNames.includes(name)))];
    if (unknown.length === 0) continue;
    throw new BdkError(
      "invalid_request",
      `overrides.${field}: no tool named ${unknown.map((name) => JSON.stringify(name)).join(", ")}. Tools: ${toolNames.join(", ")}.`,
    );
  }
}

/**
 * A call stub must name a call the fork makes: calls up to the cut are
 * inherited with their results (`answered` counts them by tool), and one
 * call has one result.
 */
export function checkCallStubs(overrides: RunOverrides, answered: ReadonlyMap<string, number>): void {
  const seen = new Set<string>();
  for (const [position, stub] of (overrides.toolCallResults ?? []).entries()) {
    const where = `overrides.toolCallResults[${position}]`;
    const inherited = answered.get(stub.name) ?? 0;
    if (stub.call <= inherited) {
      throw new BdkError(
        "invalid_request",
        `${where}: call ${stub.call} of ${stub.name} is before the fork point, so the fork inherits its result; the fork's first call of ${stub.name} is call ${inherited + 1}.`,
      );
    }
    const key = `${stub.name}#${stub.call}`;
    if (seen.has(key)) throw new BdkError("invalid_request", `${where}: call ${stub.call} of ${stub.name} is stubbed twice.`);
    seen.add(key);
  }
}
