/** `defineAgent` values: the root's bot/agent.ts and each subagent's agent.ts. */
import type { ModelSetting } from "../authoring/types.ts";
import type { SubagentEntry } from "../discover/manifest.ts";
import { checked, importDefinition, readProjectFile, type LoadContext } from "./context.ts";
import { DefinitionError } from "./definition-error.ts";
import type { AgentConfig, ResolvedSubagent } from "./types.ts";

function isModelSetting(value: unknown): value is ModelSetting {
  if (typeof value === "string") return value.trim().length > 0;
  if (typeof value !== "object" || value === null) return false;
  const { id, params } = value as { id?: unknown; params?: unknown };
  return (
    typeof id === "string" &&
    (params === undefined ||
      (Array.isArray(params) && params.every((param) => typeof param?.id === "string" && typeof param?.value === "string")))
  );
}

/** Throws `DefinitionError` on fields the runtime could not use. */
export function checkAgentConfig(config: AgentConfig): AgentConfig {
  if ("cursorAccount" in config) {
    throw new DefinitionError(
      "unsupported_feature",
      "cursorAccount is a Cursor account feature; the open kit has no Cursor account",
      "Remove it: models run on their provider's key (XAI_API_KEY, OPENAI_API_KEY, ...). See `bdk docs migrating-from-cursor-bdk`.",
    );
  }
  if (config.model !== undefined && !isModelSetting(config.model)) {
    throw new DefinitionError("invalid_definition", 'model must be a model id or { id, params: [{ id, value }] }', 'e.g. model: "grok-4.5"');
  }
  if (config.modelFallbacks !== undefined && !(Array.isArray(config.modelFallbacks) && config.modelFallbacks.every(isModelSetting))) {
    throw new DefinitionError("invalid_definition", "modelFallbacks must be a list of model settings");
  }
  if (config.tools !== undefined && !(Array.isArray(config.tools) && config.tools.every((tool) => typeof tool === "string"))) {
    throw new DefinitionError("invalid_definition", 'tools must be a list of built-in tool names, e.g. ["read", "grep"]');
  }
  for (const field of ["name", "description", "instructions"] as const) {
    if (config[field] !== undefined && typeof config[field] !== "string") throw new DefinitionError("invalid_definition", `${field} must be a string`);
  }
  return config;
}

export async function loadAgentConfig(ctx: LoadContext, file: string | undefined): Promise<AgentConfig> {
  if (!file) return {};
  const definition = await importDefinition(ctx, file, { kinds: ["agent"], helper: "defineAgent(...)" });
  if (!definition) return {};
  return checked(ctx, file, () => checkAgentConfig(definition as AgentConfig)) ?? {};
}

/** A subagent from its config; `instructionsText` comes from instructions.md when present. */
export function resolveSubagent(id: string, config: AgentConfig, file: string, instructionsText?: string): ResolvedSubagent {
  checkAgentConfig(config);
  if (!config.description?.trim()) {
    throw new DefinitionError(
      "missing_description",
      `subagent "${id}" needs a description (the parent reads it to decide when to delegate)`,
      'defineAgent({ description: "Researches ...", ... })',
    );
  }
  if (config.instructions !== undefined && instructionsText !== undefined) {
    throw new DefinitionError("multiple_forms", `subagent "${id}" has inline instructions and an instructions.md; keep one`);
  }
  return { id, description: config.description.trim(), instructions: (instructionsText ?? config.instructions ?? "").trim(), config, file };
}

export async function loadSubagent(ctx: LoadContext, entry: SubagentEntry): Promise<ResolvedSubagent | undefined> {
  const definition = await importDefinition(ctx, entry.file, { kinds: ["agent"], helper: "defineAgent({ description, ... })" });
  if (!definition) return undefined;
  const instructionsText = entry.instructionsFile ? readProjectFile(ctx, entry.instructionsFile) : undefined;
  const subagent = checked(ctx, entry.file, () => resolveSubagent(entry.id, definition as AgentConfig, entry.file, instructionsText));
  if (subagent && !subagent.instructions) {
    ctx.diagnostics.warning("empty_instructions", `subagent "${entry.id}" has no instructions; it works from its description alone`, {
      file: entry.file,
      hint: "Add instructions.md next to agent.ts, or an instructions string in defineAgent.",
    });
  }
  return subagent;
}
