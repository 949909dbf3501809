import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ProviderOptions } from "@ai-sdk/provider-utils";
import { jsonSchema, streamText, tool, type ModelMessage, type ToolSet } from "ai";
import type { EventDraft, TokenUsage, ToolAction } from "../protocol/events.ts";
import type { LoadedTool } from "../load/types.ts";


export interface StepRequest {
  model: LanguageModelV3;
  system: string;
  messages: ModelMessage[];
  tools: LoadedTool[];
  providerOptions?: ProviderOptions;
  abortSignal: AbortSignal;
  /** Receives the streamed reasoning and text as session event drafts. */
  onEvent(draft: EventDraft): void;
}

export interface StepOutcome {
  text: string;
  toolCalls: ToolAction[];
  finishReason: string;
  usage: TokenUsage;
  /** The assistant message(s) to append to the conversation. */
  responseMessages: ModelMessage[];
}

const modelTools = new WeakMap<LoadedTool, ToolSet[string]>();

/** Tools as the model sees them: schemas only. Execution stays with the loop so it can gate, time and record it. */
export function toModelTools(tools: LoadedTool[]): ToolSet {
  const set: ToolSet = {};
  for (const loaded of tools) {
    let described = modelTools.get(loaded);
    if (!described) {
      described = tool({ description: loaded.description, inputSchema: jsonSchema(loaded.inputJsonSchema) });
      modelTools.set(loaded, described);
    }
    set[loaded.name] = described;
  }
  return set;
}

/** One model call, streamed. Throws the provider's error (the loop classifies it). */
export async function runModelStep(request: StepRequest): Promise<StepOutcome> {
  let failure: unknown;
  const result = streamText({
    model: request.model,
    system: request.system,
    messages: request.messages,
    tools: toModelTools(request.tools),
    providerOptions: request.providerOptions,
    abortSignal: request.abortSignal,
    maxRetries: 0,
    onError: ({ error }) => {
      failure = error;
    },
  });

  let text = "";
  let reasoning = "";
  const toolCalls: ToolAction[] = [];
  let finishReason = "unknown";
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };

  for await (const part of result.fullStream) {
    switch (part.type) {
      case "reasoning-delta":
        if (part.text) {
          reasoning += part.text;
          request.onEvent({ type: "reasoning.appended", data: { delta: part.text } });
        }
        break;
      case "reasoning-end":
        if (reasoning) request.onEvent({ type: "reasoning.completed", data: { text: reasoning } });
        break;
      case "text-delta":
        if (part.text) {
          text += part.text;
          request.onEvent({ type: "message.appended", data: { delta: part.text } });
        }
        break;
      case "tool-call":
        toolCalls.push({ toolCallId: part.toolCallId, name: part.toolName, input: part.input });
        break;
      case "finish-step":
        finishReason = part.finishReason;
        usage = {
          inputTokens: part.usage.inputTokens ?? 0,
          outputTokens: part.usage.outputTokens ?? 0,
          cachedInputTokens: part.usage.inputTokenDetails?.cacheReadTokens ?? 0,
        };
        break;
      case "error":
        failure = part.error;
        break;
    }
  }
  if (failure !== undefined) throw failure;
  request.abortSignal.throwIfAborted();

  const response = await result.response;
  return { text, toolCalls, finishReason, usage, responseMessages: response.messages };
}
