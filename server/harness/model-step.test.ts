import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import { convertArrayToReadableStream } from "ai/test";
import { toModelOutput } from "./execute-tool.ts";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { zodTool } from "../../test/support/tools.ts";
import type { EventDraft } from "../protocol/events.ts";
import { runModelStep } from "./model-step.ts";

const usage = {
  inputTokens: { total: 12, noCache: 10, cacheRead: 2, cacheWrite: undefined },
  outputTokens: { total: 7, text: 7, reasoning: undefined },
};

/** A provider that streams `parts` and records the call it received. */
function providerStreaming(parts: LanguageModelV3StreamPart[] | ReadableStream<LanguageModelV3StreamPart>, provider = "test") {
  const calls: LanguageModelV3CallOptions[] = [];
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider,
    modelId: "test-model",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("not used")),
    async doStream(options) {
      calls.push(options);
      return { stream: Array.isArray(parts) ? convertArrayToReadableStream(parts) : parts };
    },
  };
  return { model, calls };
}

function step(
  model: LanguageModelV3,
  options: { tools?: ReturnType<typeof zodTool>[]; signal?: AbortSignal; messages?: ModelMessage[] } = {},
) {
  const events: EventDraft[] = [];
  const outcome = runModelStep({
    model,
    system: "You review pull requests.",
    messages: options.messages ?? [{ role: "user", content: "hello" }],
    tools: options.tools ?? [],
    abortSignal: options.signal ?? new AbortController().signal,
    onEvent: (draft) => events.push(draft),
  });
  return { events, outcome };
}

describe("runModelStep", () => {
  it("sends the system prompt, the messages and the tool schemas the provider expects", async () => {
    const { model, calls } = providerStreaming([{ type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage }]);
    const inspect = zodTool("inspect_pr", z.object({ prUrl: z.string() }), () => "ok");
    await step(model, { tools: [inspect] }).outcome;
    expect(calls[0].prompt).toEqual([
      { role: "system", content: "You review pull requests." },
      { role: "user", content: [{ type: "text", text: "hello" }] },
    ]);
    expect(calls[0].tools).toEqual([
      { type: "function", name: "inspect_pr", description: inspect.description, inputSchema: inspect.inputJsonSchema },
    ]);
    expect(calls[0].toolChoice).toEqual({ type: "auto" });
  });

  it("streams reasoning and text as events and returns the assistant message with provider metadata", async () => {
    const signature = { anthropic: { signature: "sig-1" } };
    const { model } = providerStreaming([
      { type: "stream-start", warnings: [] },
      { type: "reasoning-start", id: "r" },
      { type: "reasoning-delta", id: "r", delta: "Think" },
      { type: "reasoning-delta", id: "r", delta: "ing." },
      { type: "reasoning-end", id: "r", providerMetadata: signature },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Hello " },
      { type: "text-delta", id: "t", delta: "there." },
      { type: "text-end", id: "t" },
      { type: "finish", finishReason: { unified: "stop", raw: "end_turn" }, usage },
    ]);
    const { events, outcome } = step(model);
    const result = await outcome;
    expect(events).toEqual([
      { type: "reasoning.appended", data: { delta: "Think" } },
      { type: "reasoning.appended", data: { delta: "ing." } },
      { type: "reasoning.completed", data: { text: "Thinking." } },
      { type: "message.appended", data: { delta: "Hello " } },
      { type: "message.appended", data: { delta: "there." } },
    ]);
    expect(result).toMatchObject({
      text: "Hello there.",
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 12, outputTokens: 7, cachedInputTokens: 2 },
    });
    // The signature goes back to the provider on the next step, as streamText would send it.
    expect(result.responseMessages).toEqual([
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Thinking.", providerOptions: signature },
          { type: "text", text: "Hello there.", providerOptions: undefined },
        ],
      },
    ]);
  });

  it("keeps an Anthropic thinking signature sent as an empty delta, and reasoning that has only metadata", async () => {
    const signature = { anthropic: { signature: "sig-abc" } };
    const encrypted = { openai: { itemId: "rs_1", reasoningEncryptedContent: "gAAAA" } };
    const { model } = providerStreaming([
      { type: "reasoning-start", id: "0" },
      { type: "reasoning-delta", id: "0", delta: "Let me look." },
      { type: "reasoning-delta", id: "0", delta: "", providerMetadata: signature },
      { type: "reasoning-end", id: "0" },
      { type: "reasoning-start", id: "rs_1", providerMetadata: encrypted },
      { type: "reasoning-end", id: "rs_1", providerMetadata: encrypted },
      { type: "tool-call", toolCallId: "toolu_1", toolName: "inspect_pr", input: "{}" },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_use" }, usage },
    ]);
    const { events, outcome } = step(model);
    const result = await outcome;
    expect(events.filter((event) => event.type === "reasoning.appended")).toHaveLength(1);
    expect(result.responseMessages[0].content).toEqual([
      { type: "reasoning", text: "Let me look.", providerOptions: signature },
      { type: "reasoning", text: "", providerOptions: encrypted },
      { type: "tool-call", toolCallId: "toolu_1", toolName: "inspect_pr", input: {}, providerOptions: undefined },
    ]);
  });

  it("returns tool calls with their parsed input, and passes input that is not JSON on as text", async () => {
    const { model } = providerStreaming([
      { type: "tool-call", toolCallId: "call_1", toolName: "inspect_pr", input: '{"prUrl":"https://x/pull/1"}' },
      { type: "tool-call", toolCallId: "call_2", toolName: "inspect_pr", input: "{not json" },
      { type: "tool-call", toolCallId: "call_3", toolName: "list_all", input: "" },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
    ]);
    const result = await step(model).outcome;
    expect(result.toolCalls).toEqual([
      { toolCallId: "call_1", name: "inspect_pr", input: { prUrl: "https://x/pull/1" } },
      { toolCallId: "call_2", name: "inspect_pr", input: "{not json" },
      { toolCallId: "call_3", name: "list_all", input: {} },
    ]);
    expect(result.finishReason).toBe("tool-calls");
    const content = result.responseMessages[0].content as { type: string; input?: unknown }[];
    expect(content.map((part) => part.input)).toEqual([{ prUrl: "https://x/pull/1" }, {}, {}]);
  });

  it("throws the error the provider streams", async () => {
    const { model } = providerStreaming([
      { type: "text-delta", id: "t", delta: "Hel" },
      { type: "error", error: new Error("upstream overloaded") },
    ]);
    await expect(step(model).outcome).rejects.toThrow("upstream overloaded");
  });

  it("stops on abort even when the provider ignores the signal", async () => {
    const never = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        controller.enqueue({ type: "text-delta", id: "t", delta: "Working" });
      },
    });
    const controller = new AbortController();
    const { model } = providerStreaming(never);
    const { events, outcome } = step(model, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stopped by the user")), 20);
    await expect(outcome).rejects.toThrow("stopped by the user");
    expect(events).toEqual([{ type: "message.appended", data: { delta: "Working" } }]);
  });

  it("sends a tool's image to providers that take images in tool results, and a placeholder to the others", async () => {
    const screenshot = { content: [{ type: "text", text: "The checkout page:" }, { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }] };
    const messages: ModelMessage[] = [
      { role: "user", content: "Show me the page" },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", toolName: "screenshot", input: {} }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "call_1", toolName: "screenshot", output: toModelOutput({ output: screenshot, isError: false }) }],
      },
    ];
    const finish: LanguageModelV3StreamPart = { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage };
    const toolOutput = (call: LanguageModelV3CallOptions) =>
      call.prompt.flatMap((message) => (message.role === "tool" ? message.content : [])).map((part) => (part as { output: unknown }).output);

    const anthropic = providerStreaming([finish], "anthropic.messages");
    await step(anthropic.model, { messages }).outcome;
    expect(toolOutput(anthropic.calls[0])).toEqual([
      { type: "content", value: [{ type: "text", text: "The checkout page:" }, { type: "image-data", data: "iVBORw0KGgo=", mediaType: "image/png" }] },
    ]);

    const chat = providerStreaming([finish], "xai.chat");
    await step(chat.model, { messages }).outcome;
    expect(toolOutput(chat.calls[0])).toEqual([{ type: "text", value: "The checkout page:\n[image image/png]" }]);
  });
});
