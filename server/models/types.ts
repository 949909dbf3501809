import type { JSONValue, LanguageModelV3 } from "@ai-sdk/provider";

export type ModelProvider = "xai" | "openai" | "anthropic" | "compat" | "scripted";

export interface ModelParam {
  id: string;
  value: string;
}

/** A model ready for a turn, with the provider options its params became. */
export interface ResolvedModel {
  /** The id as configured, e.g. `grok-4.5`, `openai/gpt-5`, `scripted`. */
  id: string;
  provider: ModelProvider;
  model: LanguageModelV3;
  /** Sent with every call to the model (`doStream({ providerOptions })`). */
  providerOptions: Record<string, Record<string, JSONValue>>;
  /** The params in effect (reported by `info`). */
  params: ModelParam[];
  /** Set in dev when the configured model had no credential and `scripted` stands in. */
  fellBackToScripted?: boolean;
  /** With `fellBackToScripted`: the configured model id that could not be used. */
  requestedId?: string;
  /** With `fellBackToScripted`: why (names the missing variable); log it loudly. */
  fallbackReason?: string;
}

export interface ResolveModelOptions {
  env: Record<string, string | undefined>;
  /** Named by the scripted model when it introduces itself. */
  agentName: string;
  /** `bdk dev`: a missing credential falls back to `scripted` instead of failing. */
  dev?: boolean;
  /** The CLI `--model` flag; wins over `BDK_MODEL` and the agent's setting. */
  override?: string;
}
