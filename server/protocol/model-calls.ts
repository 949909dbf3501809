/**
 * What one model step was sent and answered, as `GET /v1/session/:id/turns/:turnId/trace`
 * returns it (the Trace tab's detail). Strings longer than `MAX_STORED_STRING`
 * are cut and end with a visible marker naming their original length.
 */
import type { TokenUsage, ToolAction } from "./events.ts";

export interface OfferedTool {
  name: string;
  description?: string;
  inputSchema: unknown;
}

export interface ModelCallRequest {
  system: string;
  /** The conversation as the step sent it (AI SDK `ModelMessage`s). */
  messages: unknown[];
  tools: OfferedTool[];
  /** Model id as configured, the provider and its model id, and the provider options the model params became. */
  params: { model: string; provider: string; modelId: string; providerOptions?: unknown };
}

export interface ModelCallResponse {
  text: string;
  reasoning: string;
  toolCalls: ToolAction[];
  finishReason: string;
  usage: TokenUsage;
  responseModel?: string;
  responseId?: string;
}

export interface ModelCall {
  turnId: string;
  /** Empty for the turn's own steps; a subagent's steps carry the id of the parent's `task` call. */
  scope: string;
  step: number;
  startedAt: string;
  durationMs: number;
  request: ModelCallRequest;
  response: ModelCallResponse;
}

/** What the model step stores, without where (session, turn, scope): the recorder adds that. */
export type ModelStepRecord = Omit<ModelCall, "turnId" | "scope">;

/** What a turn's tool calls were checked as: the ledger's view (effect, validated input, status). */
export interface TracedToolCall {
  toolCallId: string;
  name: string;
  effect: "read" | "write";
  input: unknown;
  /** `resolved`: an in-doubt call a person has since checked (see `action.in_doubt_resolved`). */
  status: "started" | "finished" | "in_doubt" | "resolved";
  startedAt: string;
  endedAt: string | null;
}

export interface TurnTrace {
  turnId: string;
  modelCalls: ModelCall[];
  toolCalls: TracedToolCall[];
}

/** Longest string kept as is in a stored request or response (a tool output, a long message). */
export const MAX_STORED_STRING = 16_384;
