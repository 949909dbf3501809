/**
 * The built-in `scripted` model: a real LanguageModelV3 provider that needs
 * no network. It takes the same path as any other model (streaming,
 * tool calls, usage), and answers deterministically (see scripted-plan.ts).
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FunctionTool,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { planScriptedStep, type ScriptedStep } from "./scripted-plan.ts";

export interface ScriptedModelOptions {
  /** Named in the model's self-introduction. */
  agentName: string;
  /** Pause in the middle of every step (after the reasoning line), for latency tests and benchmarks. */
  stepDelayMs?: number;
  /** Pause between streamed deltas. */
  tokenDelayMs?: number;
}

export const SCRIPTED_MODEL_ID = "scripted";

export function createScriptedModel(options: ScriptedModelOptions): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "bdk",
    modelId: SCRIPTED_MODEL_ID,
    supportedUrls: {},
    async doGenerate(call) {
      const step = plan(options.agentName, call);
      await sleep(options.stepDelayMs, call.abortSignal);
      return generateResult(step, call.prompt, functionTools(call));
    },
    async doStream(call) {
      throwIfAborted(call.abortSignal);
      const step = plan(options.agentName, call);
      return { stream: toReadableStream(streamParts(step, call, options), call.abortSignal) } satisfies LanguageModelV3StreamResult;
    },
  };
}

function plan(agentName: string, call: LanguageModelV3CallOptions): ScriptedStep {
  return planScriptedStep({ agentName, prompt: call.prompt, tools: functionTools(call), toolChoice: call.toolChoice });
}

function functionTools(call: LanguageModelV3CallOptions): LanguageModelV3FunctionTool[] {
  return (call.tools ?? []).filter((tool): tool is LanguageModelV3FunctionTool => tool.type === "function");
}

async function* streamParts(
  step: ScriptedStep,
  call: LanguageModelV3CallOptions,
  options: ScriptedModelOptions,
): AsyncGenerator<LanguageModelV3StreamPart> {
  const pause = () => sleep(options.tokenDelayMs, call.abortSignal);
  yield { type: "stream-start", warnings: [] };
  yield { type: "response-metadata", modelId: SCRIPTED_MODEL_ID };

  yield { type: "reasoning-start", id: "reasoning-0" };
  for (const delta of splitWords(step.reasoning)) {
    await pause();
    yield { type: "reasoning-delta", id: "reasoning-0", delta };
  }
  yield { type: "reasoning-end", id: "reasoning-0" };
  await sleep(options.stepDelayMs, call.abortSignal);

  if (step.kind === "tool-call") {
    const toolCallId = nextToolCallId(call.prompt);
    const input = JSON.stringify(step.input);
    yield { type: "tool-input-start", id: toolCallId, toolName: step.toolName };
    for (const delta of splitJson(input)) {
      await pause();
      yield { type: "tool-input-delta", id: toolCallId, delta };
    }
    yield { type: "tool-input-end", id: toolCallId };
    yield { type: "tool-call", toolCallId, toolName: step.toolName, input };
  } else {
    yield { type: "text-start", id: "text-0" };
    for (const delta of splitWords(step.text)) {
      await pause();
      yield { type: "text-delta", id: "text-0", delta };
    }
    yield { type: "text-end", id: "text-0" };
  }
  yield { type: "finish", finishReason: finishReasonOf(step), usage: usageOf(step, call.prompt, functionTools(call)) };
}

function generateResult(
  step: ScriptedStep,
  prompt: LanguageModelV3Prompt,
  tools: LanguageModelV3FunctionTool[],
): LanguageModelV3GenerateResult {
  const content: LanguageModelV3Content[] = [{ type: "reasoning", text: step.reasoning }];
  if (step.kind === "tool-call") {
    content.push({
      type: "tool-call",
      toolCallId: nextToolCallId(prompt),
      toolName: step.toolName,
      input: JSON.stringify(step.input),
    });
  } else {
    content.push({ type: "text", text: step.text });
  }
  return {
    content,
    finishReason: finishReasonOf(step),
    usage: usageOf(step, prompt, tools),
    response: { modelId: SCRIPTED_MODEL_ID },
    warnings: [],
  };
}

function finishReasonOf(step: ScriptedStep) {
  return step.kind === "tool-call"
    ? { unified: "tool-calls" as const, raw: "tool_calls" }
    : { unified: "stop" as const, raw: "stop" };
}

/** Ids count the tool calls already in the conversation, so they are unique per session and repeatable. */
function nextToolCallId(prompt: LanguageModelV3Prompt): string {
  let calls = 0;
  for (const message of prompt) {
    if (message.role !== "assistant") continue;
    calls += message.content.filter((part) => part.type === "tool-call").length;
  }
  return `call_scripted_${calls + 1}`;
}

/** About four characters per token, like common tokenizers on English text. */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function usageOf(
  step: ScriptedStep,
  prompt: LanguageModelV3Prompt,
  tools: LanguageModelV3FunctionTool[],
): LanguageModelV3Usage {
  const input = estimateTokens(promptText(prompt) + JSON.stringify(tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))));
  const reasoning = estimateTokens(step.reasoning);
  const text = estimateTokens(step.kind === "tool-call" ? step.toolName + JSON.stringify(step.input) : step.text);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: reasoning + text, text, reasoning },
  };
}

/** The parts of a prompt a tokenizer would see; file bytes count by their name only. */
function promptText(prompt: LanguageModelV3Prompt): string {
  return prompt
    .map((message) => {
      if (message.role === "system") return message.content;
      return message.content
        .map((part) => {
          switch (part.type) {
            case "text":
            case "reasoning":
              return part.text;
            case "file":
              return part.filename ?? part.mediaType;
            case "tool-call":
              return part.toolName + JSON.stringify(part.input);
            case "tool-result":
              return part.toolName + JSON.stringify(part.output);
            default:
              return "";
          }
        })
        .join("\n");
    })
    .join("\n");
}

const DELTA_CHARS = 32;

/**
 * Pieces of about 32 characters, cut after whitespace where there is some,
 * so the deltas join back to the exact text: visibly streamed, without a
 * stream chunk per word.
 */
function splitWords(text: string): string[] {
  const deltas: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + DELTA_CHARS);
    const space = text.slice(at, end).lastIndexOf(" ");
    if (end < text.length && space > DELTA_CHARS / 2) end = at + space + 1;
    deltas.push(text.slice(at, end));
    at = end;
  }
  return deltas.length > 0 ? deltas : [text];
}

function splitJson(json: string): string[] {
  const size = Math.max(8, Math.ceil(json.length / 3));
  const pieces: string[] = [];
  for (let at = 0; at < json.length; at += size) pieces.push(json.slice(at, at + size));
  return pieces;
}

function toReadableStream(
  parts: AsyncGenerator<LanguageModelV3StreamPart>,
  abortSignal: AbortSignal | undefined,
): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream({
    async pull(controller) {
      try {
        throwIfAborted(abortSignal);
        const next = await parts.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await parts.return(undefined);
    },
  });
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

function sleep(ms: number | undefined, signal: AbortSignal | undefined): Promise<void> {
  if (!ms || ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
