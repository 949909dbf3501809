/** `defineAgent` values: the root's bot/agent.ts and each subagent's agent.ts. */
import type { ModelSetting } from "../authoring/types.ts";
import type { DiagnosticCode } from "../discover/diagnostics.ts";
import type { SubagentEntry } from "../discover/manifest.ts";
import { ACCEPTED_MODEL_FORMS, providerFor } from "../models/providers.ts";
import { SCRIPTED_MODEL_ID } from "../models/scripted.ts";
import { ALLOWLISTED_BUILTINS } from "./builtin-names.ts";
import { checkConfigFields, type FieldCheck, type Fields, isBoolean, isString, listOf, unknownKeys, wholeNumberAtLeast } from "./config-fields.ts";
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

const modelSetting: FieldCheck = (value) => (isModelSetting(value) ? undefined : 'must be a model id or { id, params: [{ id, value }] }, e.g. "grok-4.5"');
const stringList = listOf(isString, "must be a list of strings");

/** Every key `defineAgent` takes; anything else is reported as unknown (and ignored). */
const AGENT_CONFIG_FIELDS: Fields = {
  model: modelSetting,
  modelFallbacks: listOf(modelSetting, "must be a list of model settings"),
  name: isString,
  description: isString,
  instructions: isString,
  tools: listOf(isString, 'must be a list of built-in tool names, e.g. ["read", "grep"]'),
  local: { cwd: isString, workspaceDir: isString, sandbox: isBoolean },
  concurrency: {
    maxRunningTurns: wholeNumberAtLeast(1, "must be at least 1 (with 0 no turn could ever start: every one would queue forever)"),
  },
  hosting: { egressDomains: stringList, secretNames: stringList, image: isString },
  persistent: isBoolean,
  builtinTools: { reminders: isBoolean },
};

/** Keys earlier kits used, with what to do about them. */
const LEGACY_KEYS: Record<string, string> = {
  runtime: "runtime was a setting of earlier kits; agents always run locally here. Remove it.",
};

/** Throws `DefinitionError` naming the first field the runtime could not use. */
export function checkAgentConfig(config: AgentConfig): AgentConfig {
  // An error, not an ignored key: the agent would otherwise run with other models and billing than its author meant.
  if ("cursorAccount" in config) {
    throw new DefinitionError(
      "unsupported_feature",
      "cursorAccount is a Cursor account feature; the open kit has no Cursor account",
      "Remove it: models run on their provider's key (XAI_API_KEY, OPENAI_API_KEY, ...). See `bdk docs migrating-from-cursor-bdk`.",
    );
  }
  return checkConfigFields(AGENT_CONFIG_FIELDS, config);
}

export interface ConfigWarning {
  code: DiagnosticCode;
  message: string;
  hint?: string;
}

function modelWarning(setting: ModelSetting, field: string): ConfigWarning | undefined {
  const id = (typeof setting === "string" ? setting : setting.id).trim();
  if (id === SCRIPTED_MODEL_ID || providerFor(id)) return undefined;
  return {
    code: "unknown_model",
    message: `${field} "${id}" is not a model this kit can call; turns fail unless --model or BDK_MODEL picks another`,
    hint: `Use ${ACCEPTED_MODEL_FORMS}.`,
  };
}

/** What a usable config still gets wrong: keys nobody reads, model ids no provider serves. */
export function agentConfigWarnings(config: AgentConfig): ConfigWarning[] {
  const warnings: ConfigWarning[] = unknownKeys(AGENT_CONFIG_FIELDS, config).map((key) => ({
    code: "unknown_config_key",
    message: `"${key}" is not an agent config key; it is ignored`,
    hint: LEGACY_KEYS[key] ?? `defineAgent takes ${Object.keys(AGENT_CONFIG_FIELDS).join(", ")} (see docs/agent-config.md).`,
  }));
  const models: [ModelSetting | undefined, string][] = [
    [config.model, "model"],
    ...(config.modelFallbacks ?? []).map((setting, index): [ModelSetting, string] => [setting, `modelFallbacks[${index}]`]),
  ];
  for (const [setting, field] of models) {
    const warning = setting === undefined ? undefined : modelWarning(setting, field);
    if (warning) warnings.push(warning);
  }
  const unknownTools = (config.tools ?? []).filter((name) => !ALLOWLISTED_BUILTINS.includes(name));
  if (unknownTools.length > 0) {
    warnings.push({
      code: "unknown_builtin_tool",
      message: `tools lists ${unknownTools.map((name) => `"${name}"`).join(", ")}, which ${unknownTools.length === 1 ? "is not a built-in tool" : "are not built-in tools"} of this kit; ignored`,
      hint: `The allowlist picks among the built-ins: ${ALLOWLISTED_BUILTINS.join(", ")} (shell runs commands). Your own tools and MCP tools are always available.`,
    });
  }
  return warnings;
}

function reportWarnings(ctx: LoadContext, file: string, config: AgentConfig): void {
  for (const { code, message, hint } of agentConfigWarnings(config)) ctx.diagnostics.warning(code, message, { file, hint });
}

export async function loadAgentConfig(ctx: LoadContext, file: string | undefined): Promise<AgentConfig> {
  if (!file) return {};
  const definition = await importDefinition(ctx, file, { kinds: ["agent"], helper: "defineAgent(...)" });
  if (!definition) return {};
  const config = checked(ctx, file, () => checkAgentConfig(definition as AgentConfig));
  if (!config) return {};
  reportWarnings(ctx, file, config);
  return config;
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
  if (!subagent) return undefined;
  if (entry.instructionsFile) subagent.instructionsFile = entry.instructionsFile;
  reportWarnings(ctx, entry.file, subagent.config);
  if (!subagent.instructions) {
    ctx.diagnostics.warning("empty_instructions", `subagent "${entry.id}" has no instructions; it works from its description alone`, {
      file: entry.file,
      hint: "Add instructions.md next to agent.ts, or an instructions string in defineAgent.",
    });
  }
  return subagent;
}
