/**
 * Which model a turn uses: `--model` > `BDK_MODEL` > the agent's setting >
 * the default, then the provider table turns the id into a callable model.
 */
import type { ModelSetting } from "../authoring/types.ts";
import { BdkError } from "../protocol/errors.ts";
import { ACCEPTED_MODEL_FORMS, providerFor, providerOptionsFor } from "./providers.ts";
import { createScriptedModel, SCRIPTED_MODEL_ID } from "./scripted.ts";
import type { ModelParam, ResolvedModel, ResolveModelOptions } from "./types.ts";

export const DEFAULT_MODEL_SETTING = {
  id: "grok-4.5",
  params: [
    { id: "effort", value: "high" },
    { id: "fast", value: "true" },
  ],
} as const satisfies ModelSetting;

export function resolveModel(setting: ModelSetting | undefined, options: ResolveModelOptions): ResolvedModel {
  const pinned = pinnedModelId(options);
  const { id, params } = normalize(pinned ?? setting ?? DEFAULT_MODEL_SETTING);
  try {
    return resolveExactly(id, params, options);
  } catch (error) {
    if (!options.dev || !isMissingCredential(error)) throw error;
    return { ...scripted([], options), fellBackToScripted: true, requestedId: id, fallbackReason: error.message };
  }
}

/**
 * The candidates for a turn: the primary model, then `modelFallbacks`, in
 * order. Candidates without a credential are left out; when none is left
 * the first one's error is thrown (in dev: `scripted` stands in). A pinned
 * model (`--model`, `BDK_MODEL`) is the only candidate.
 */
export function resolveModelChain(
  primary: ModelSetting | undefined,
  fallbacks: ModelSetting[] | undefined,
  options: ResolveModelOptions,
): ResolvedModel[] {
  if (pinnedModelId(options) !== undefined) return [resolveModel(primary, options)];
  const candidates: ResolvedModel[] = [];
  let firstMissing: BdkError | undefined;
  for (const setting of [primary ?? DEFAULT_MODEL_SETTING, ...(fallbacks ?? [])]) {
    try {
      candidates.push(resolveModel(setting, { ...options, dev: false }));
    } catch (error) {
      if (!isMissingCredential(error)) throw error;
      firstMissing ??= error;
    }
  }
  if (candidates.length > 0) return candidates;
  if (!options.dev) throw firstMissing;
  return [resolveModel(primary, options)];
}

function resolveExactly(id: string, params: ModelParam[], options: ResolveModelOptions): ResolvedModel {
  if (id === SCRIPTED_MODEL_ID) return scripted(params, options);
  const route = providerFor(id);
  if (!route) {
    throw new BdkError("model_unavailable", `Unknown model "${id}". Use ${ACCEPTED_MODEL_FORMS}.`, {
      model: id,
      reason: "unknown_model",
    });
  }
  const { spec, modelId } = route;
  const variable = spec.requiredVariable;
  if (!options.env[variable]) {
    throw new BdkError(
      "model_unavailable",
      `Model ${id} needs ${variable}: set it in the environment, or set BDK_MODEL=scripted to use the offline scripted model.`,
      { model: id, reason: "missing_credential", variable },
    );
  }
  return {
    id,
    provider: spec.provider,
    model: spec.create(modelId, options.env),
    providerOptions: providerOptionsFor(spec, params),
    params,
  };
}

function scripted(params: ModelParam[], options: ResolveModelOptions): ResolvedModel {
  return {
    id: SCRIPTED_MODEL_ID,
    provider: "scripted",
    model: createScriptedModel({
      agentName: options.agentName,
      stepDelayMs: milliseconds(options.env.BDK_SCRIPTED_DELAY_MS),
      tokenDelayMs: milliseconds(options.env.BDK_SCRIPTED_TOKEN_DELAY_MS),
    }),
    providerOptions: {},
    params,
  };
}

function pinnedModelId(options: ResolveModelOptions): string | undefined {
  return [options.override, options.env.BDK_MODEL].map((value) => value?.trim()).find((value) => !!value);
}

function normalize(setting: ModelSetting): { id: string; params: ModelParam[] } {
  if (typeof setting === "string") return { id: setting.trim(), params: [] };
  return { id: setting.id.trim(), params: (setting.params ?? []).map(({ id, value }) => ({ id, value })) };
}

function milliseconds(value: string | undefined): number | undefined {
  const parsed = Number(value);
  return value && Number.isFinite(parsed) && parsed > 0 ? parsed : undefined;
}

function isMissingCredential(error: unknown): error is BdkError {
  return BdkError.isInstance(error) && error.details?.reason === "missing_credential";
}
