export { resolveModel, resolveModelChain, DEFAULT_MODEL_SETTING } from "./resolve.ts";
export { isModelUnavailableError } from "./unavailable.ts";
export { createScriptedModel, SCRIPTED_MODEL_ID, type ScriptedModelOptions } from "./scripted.ts";
export { ACCEPTED_MODEL_FORMS } from "./providers.ts";
export type { ModelParam, ModelProvider, ResolvedModel, ResolveModelOptions } from "./types.ts";
export { effectiveModel } from "./effective.ts";
