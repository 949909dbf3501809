/**
 * The provider table: which model ids go to which AI SDK provider, the
 * variable each one needs, and how `effort`/`fast` map onto its options.
 */
import { createRequire } from "node:module";
import type { createAnthropic } from "@ai-sdk/anthropic";
import type { createOpenAI } from "@ai-sdk/openai";
import type { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { JSONValue, LanguageModelV3 } from "@ai-sdk/provider";
import type { createXai } from "@ai-sdk/xai";
import type { ModelParam, ModelProvider } from "./types.ts";

// Providers load on first use: a server on the scripted model (or one provider) never pays for the others.
const requireProvider = createRequire(import.meta.url);
const lazy = <T>(name: string, exportName: string) => (): T => (requireProvider(name) as Record<string, T>)[exportName];
const loadXai = lazy<typeof createXai>("@ai-sdk/xai", "createXai");
const loadOpenAI = lazy<typeof createOpenAI>("@ai-sdk/openai", "createOpenAI");
const loadAnthropic = lazy<typeof createAnthropic>("@ai-sdk/anthropic", "createAnthropic");
const loadCompat = lazy<typeof createOpenAICompatible>("@ai-sdk/openai-compatible", "createOpenAICompatible");

type Env = Record<string, string | undefined>;
type RemoteProvider = Exclude<ModelProvider, "scripted">;

export interface ProviderSpec {
  provider: RemoteProvider;
  /** The variable without which the provider cannot be called. */
  requiredVariable: string;
  /** The key of this provider's entry in `providerOptions`. */
  optionsKey: string;
  create(modelId: string, env: Env): LanguageModelV3;
  /** Provider options for `effort`, or for `fast=true` (undefined where the provider has no fast variant). */
  effortOptions(value: string): Record<string, JSONValue>;
  fastOptions?: Record<string, JSONValue>;
}

const XAI: ProviderSpec = {
  provider: "xai",
  requiredVariable: "XAI_API_KEY",
  optionsKey: "xai",
  create: (modelId, env) => loadXai()({ apiKey: env.XAI_API_KEY, baseURL: env.XAI_BASE_URL })(modelId),
  effortOptions: (value) => ({ reasoningEffort: value }),
  // xAI has no "-fast" twin for every grok id; the priority service tier is its fast lane for any model.
  fastOptions: { serviceTier: "priority" },
};

const OPENAI: ProviderSpec = {
  provider: "openai",
  requiredVariable: "OPENAI_API_KEY",
  optionsKey: "openai",
  create: (modelId, env) => loadOpenAI()({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL })(modelId),
  effortOptions: (value) => ({ reasoningEffort: value }),
  fastOptions: { serviceTier: "priority" },
};

const ANTHROPIC: ProviderSpec = {
  provider: "anthropic",
  requiredVariable: "ANTHROPIC_API_KEY",
  optionsKey: "anthropic",
  create: (modelId, env) =>
    loadAnthropic()({ apiKey: env.ANTHROPIC_API_KEY, baseURL: env.ANTHROPIC_BASE_URL })(modelId),
  effortOptions: (value) => ({ effort: value }),
  fastOptions: { speed: "fast" },
};

const COMPAT: ProviderSpec = {
  provider: "compat",
  requiredVariable: "BDK_OPENAI_BASE_URL",
  optionsKey: "compat",
  create: (modelId, env) =>
    loadCompat()({
      name: "compat",
      baseURL: env.BDK_OPENAI_BASE_URL ?? "",
      apiKey: env.BDK_OPENAI_API_KEY,
      includeUsage: true,
    }).chatModel(modelId),
  effortOptions: (value) => ({ reasoningEffort: value }),
};

export const ACCEPTED_MODEL_FORMS = "grok-<version>, openai/<id>, anthropic/<id>, compat/<id> or scripted";

/** The provider and provider-side model id for a configured id; undefined for unknown forms. */
export function providerFor(id: string): { spec: ProviderSpec; modelId: string } | undefined {
  if (id.startsWith("grok-")) return { spec: XAI, modelId: id };
  const slash = id.indexOf("/");
  if (slash <= 0 || slash === id.length - 1) return undefined;
  const spec = { openai: OPENAI, anthropic: ANTHROPIC, compat: COMPAT }[id.slice(0, slash)];
  return spec && { spec, modelId: id.slice(slash + 1) };
}

/** `effort` and `fast` become the provider's options; any other param is passed through as is. */
export function providerOptionsFor(spec: ProviderSpec, params: ModelParam[]): Record<string, Record<string, JSONValue>> {
  const options: Record<string, JSONValue> = {};
  for (const param of params) {
    if (param.id === "effort") Object.assign(options, spec.effortOptions(param.value));
    else if (param.id === "fast") Object.assign(options, isTrue(param.value) ? spec.fastOptions : {});
    else options[param.id] = coerceParamValue(param.value);
  }
  return Object.keys(options).length > 0 ? { [spec.optionsKey]: options } : {};
}

function isTrue(value: string): boolean {
  return ["true", "1", "yes", "on"].includes(value.trim().toLowerCase());
}

/** Param values are strings in agent.ts; providers want booleans and numbers typed. */
function coerceParamValue(value: string): JSONValue {
  if (value === "true") return true;
  if (value === "false") return false;
  if (value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return value;
}
