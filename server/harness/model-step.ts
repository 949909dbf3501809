import type {
  LanguageModelV3,
  LanguageModelV3FunctionTool,
  LanguageModelV3StreamPart,
  SharedV3ProviderMetadata,
} from "@ai-sdk/provider";
import type { ProviderOptions } from "@ai-sdk/provider-utils";
import type { AssistantContent, ModelMessage } from "ai";
import type { LoadedTool } from "../load/types.ts";
import { withoutToolImages } from "./execute-tool.ts";
import type { EventDraft, TokenUsage, ToolAction } from "../protocol/events.ts";

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
  reasoning: string;
  toolCalls: ToolAction[];
  finishReason: string;
  usage: TokenUsage;
  /** The assistant message(s) to append to the conversation. */
  responseMessages: ModelMessage[];
  /** The provider's `response-metadata`: the model that answered and its response id. */
  response: { modelId?: string; id?: string };
}

/** Loaded on the first turn (once): an idle server does without the AI SDK, about 15 MB. */
let aiInternalsLoading: Promise<typeof import("ai/internal")> | undefined;
const aiInternals = () => (aiInternalsLoading ??= import("ai/internal"));

const functionTools = new WeakMap<LoadedTool, LanguageModelV3FunctionTool>();

/** Tools as the model sees them: schemas only. Execution stays with the loop so it can gate, time and record it. */
export function toModelTools(tools: LoadedTool[]): LanguageModelV3FunctionTool[] {
  return tools.map((loaded) => {
    let described = functionTools.get(loaded);
    if (!described) {
      described = { type: "function", name: loaded.name, description: loaded.description, inputSchema: loaded.inputJsonSchema };
      functionTools.set(loaded, described);
    }
    return described;
  });
}

/**
 * One model call, read straight from the provider's `doStream`. The loop
 * around it (tools, approvals, model fallbacks, steps) is ours, so
 * `streamText`'s own step machinery would only add cost: about two thirds
 * of a turn's CPU (docs/architecture.md, "One model step"). The prompt
 * conversion is the AI SDK's own, so every provider sees what `streamText`
 * would send it. Throws the provider's error (the loop classifies it).
 */
export async function runModelStep(request: StepRequest): Promise<StepOutcome> {
  const { model, abortSignal } = request;
  const { convertToLanguageModelPrompt } = await aiInternals();
  const prompt = await convertToLanguageModelPrompt({
    prompt: { system: request.system, messages: withoutToolImages(request.messages, model.provider) },
    supportedUrls: await model.supportedUrls,
    download: undefined,
    abortSignal,
  });
  const tools = toModelTools(request.tools);
  const { stream } = await model.doStream({
    prompt,
    tools: tools.length > 0 ? tools : undefined,
    toolChoice: tools.length > 0 ? { type: "auto" } : undefined,
    providerOptions: request.providerOptions,
    abortSignal,
  });

  const step = new StepReader(request.onEvent);
  const reader = stream.getReader();
  // A provider that ignores the signal still stops: cancelling ends the pending read.
  const cancel = () => void reader.cancel(abortSignal.reason).catch(() => undefined);
  abortSignal.addEventListener("abort", cancel, { once: true });
  let finished = false;
  try {
    if (abortSignal.aborted) cancel();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      step.read(value);
    }
    finished = true;
  } finally {
    abortSignal.removeEventListener("abort", cancel);
    // Stopped reading early (a throw while recording): release the provider's response.
    if (!finished) cancel();
  }
  abortSignal.throwIfAborted();
  if (step.failure !== undefined) throw step.failure;
  return step.outcome();
}

type ContentPart =
  | { type: "text" | "reasoning"; id: string; text: string; providerMetadata?: SharedV3ProviderMetadata }
  | { type: "tool-call"; call: ToolAction; providerMetadata?: SharedV3ProviderMetadata };

/** Accumulates a step's stream parts into events, tool calls and the assistant message. */
class StepReader {
  failure: unknown;
  private readonly content: ContentPart[] = [];
  private readonly open = new Map<string, Extract<ContentPart, { type: "text" | "reasoning" }>>();
  private finishReason = "unknown";
  private usage: TokenUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
  private readonly response: StepOutcome["response"] = {};

  constructor(private readonly onEvent: (draft: EventDraft) => void) {}

  read(part: LanguageModelV3StreamPart): void {
    switch (part.type) {
      case "text-start":
      case "reasoning-start":
        this.start(part.type === "text-start" ? "text" : "reasoning", part.id, part.providerMetadata);
        break;
      case "text-delta":
      case "reasoning-delta": {
        const kind = part.type === "text-delta" ? "text" : "reasoning";
        const open = this.open.get(`${kind}:${part.id}`) ?? this.start(kind, part.id, undefined);
        // Anthropic sends a thinking block's signature as an empty delta carrying only metadata.
        if (part.providerMetadata) open.providerMetadata = part.providerMetadata;
        if (!part.delta) break;
        open.text += part.delta;
        this.onEvent(
          kind === "text"
            ? { type: "message.appended", data: { delta: part.delta } }
            : { type: "reasoning.appended", data: { delta: part.delta } },
        );
        break;
      }
      case "text-end":
      case "reasoning-end": {
        const key = `${part.type === "text-end" ? "text" : "reasoning"}:${part.id}`;
        const open = this.open.get(key);
        this.open.delete(key);
        if (!open) break;
        if (part.providerMetadata) open.providerMetadata = part.providerMetadata;
        if (open.type === "reasoning" && open.text) this.onEvent({ type: "reasoning.completed", data: { text: open.text } });
        break;
      }
      case "tool-call":
        // Provider-executed tools are never offered (toModelTools declares functions only).
        if (part.providerExecuted) break;
        this.content.push({
          type: "tool-call",
          call: { toolCallId: part.toolCallId, name: part.toolName, input: parseToolInput(part.input) },
          providerMetadata: part.providerMetadata,
        });
        break;
      case "finish":
        this.finishReason = part.finishReason.unified;
        this.usage = {
          inputTokens: part.usage.inputTokens.total ?? 0,
          outputTokens: part.usage.outputTokens.total ?? 0,
          cachedInputTokens: part.usage.inputTokens.cacheRead ?? 0,
        };
        break;
      case "response-metadata":
        if (part.modelId) this.response.modelId = part.modelId;
        if (part.id) this.response.id = part.id;
        break;
      case "error":
        this.failure = part.error;
        break;
    }
  }

  outcome(): StepOutcome {
    const text = this.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    const reasoning = this.content.map((part) => (part.type === "reasoning" ? part.text : "")).join("");
    const toolCalls = this.content.flatMap((part) => (part.type === "tool-call" ? [part.call] : []));
    const assistant: Exclude<AssistantContent, string> = [];
    for (const part of this.content) {
      const providerOptions = part.providerMetadata;
      if (part.type === "tool-call") {
        const { toolCallId, name, input } = part.call;
        // A call whose input was not JSON still needs an object here: the provider re-sends it.
        assistant.push({ type: "tool-call", toolCallId, toolName: name, input: isObject(input) ? input : {}, providerOptions });
      } else if (part.text || part.type === "reasoning") {
        // Reasoning stays even without text, as streamText keeps it: an OpenAI reasoning item
        // or Anthropic redacted thinking lives in its metadata, and the provider wants it back.
        assistant.push({ type: part.type, text: part.text, providerOptions });
      }
    }
    return {
      text,
      reasoning,
      toolCalls,
      finishReason: this.finishReason,
      usage: this.usage,
      responseMessages: assistant.length > 0 ? [{ role: "assistant", content: assistant }] : [],
      response: this.response,
    };
  }

  private start(type: "text" | "reasoning", id: string, providerMetadata: SharedV3ProviderMetadata | undefined) {
    const part = { type, id, text: "", providerMetadata };
    this.content.push(part);
    this.open.set(`${type}:${id}`, part);
    return part;
  }
}

/**
 * A tool call's input arrives as JSON text. Text that is not JSON is passed
 * on as is: the tool's input validation then answers the model with an error
 * naming the tool, and the turn goes on.
 */
function parseToolInput(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
