import { stepCountIs, streamText, tool, type ModelMessage, type ToolSet } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { resolveModel } from "./resolve.ts";
import { createScriptedModel } from "./scripted.ts";

interface Trace {
  calls: { toolName: string; input: unknown }[];
  text: string;
  reasoning: string;
  textDeltas: number;
  parts: string[];
  inputTokens: number;
  outputTokens: number;
}

async function run(prompt: string | ModelMessage[], tools: ToolSet, agentName = "helper"): Promise<Trace> {
  const result = streamText({
    model: createScriptedModel({ agentName }),
    tools,
    stopWhen: stepCountIs(5),
    ...(typeof prompt === "string" ? { prompt } : { messages: prompt }),
  });
  const trace: Trace = { calls: [], text: "", reasoning: "", textDeltas: 0, parts: [], inputTokens: 0, outputTokens: 0 };
  for await (const part of result.fullStream) {
    trace.parts.push(part.type);
    if (part.type === "tool-call") trace.calls.push({ toolName: part.toolName, input: part.input });
    if (part.type === "text-delta") {
      trace.text += part.text;
      trace.textDeltas++;
    }
    if (part.type === "reasoning-delta") trace.reasoning += part.text;
    if (part.type === "error") throw part.error;
  }
  const usage = await result.totalUsage;
  trace.inputTokens = usage.inputTokens ?? 0;
  trace.outputTokens = usage.outputTokens ?? 0;
  return trace;
}

const inspectPr = tool({
  description: "Inspect a pull request",
  inputSchema: z.object({ url: z.string(), depth: z.number().optional() }),
  execute: async ({ url }) => ({ url, risk: "trivial", files: 2 }),
});
const inspectIssue = tool({
  description: "Inspect an issue",
  inputSchema: z.object({ url: z.string() }),
  execute: async ({ url }) => ({ url, kind: "issue" }),
});
const getWeather = tool({
  description: "Weather for a city",
  inputSchema: z.object({ city: z.string(), unit: z.enum(["c", "f"]).optional() }),
  execute: async ({ city, unit }) => `Sunny in ${city}, 21°${unit ?? "c"}`,
});

describe("scripted model through streamText", () => {
  it("calls the tool named exactly, then summarizes its result", async () => {
    const trace = await run("please run inspect_issue on https://example.com/issues/7.", { inspect_pr: inspectPr, inspect_issue: inspectIssue });
    expect(trace.calls).toEqual([{ toolName: "inspect_issue", input: { url: "https://example.com/issues/7" } }]);
    expect(trace.text).toBe('inspect_issue returned: {"url":"https://example.com/issues/7","kind":"issue"}');
  });

  it("picks a tool by its first word, and quotes the result words", async () => {
    const trace = await run("Inspect https://github.com/acme/app/pull/42", { get_weather: getWeather, inspect_pr: inspectPr });
    expect(trace.calls).toEqual([{ toolName: "inspect_pr", input: { url: "https://github.com/acme/app/pull/42" } }]);
    expect(trace.text).toContain("trivial");
    expect(trace.text).toMatch(/^inspect_pr returned: /);
  });

  it("breaks first-word ties by declaration order", async () => {
    const first = await run("inspect https://x.test/1", { inspect_issue: inspectIssue, inspect_pr: inspectPr });
    const second = await run("inspect https://x.test/1", { inspect_pr: inspectPr, inspect_issue: inspectIssue });
    expect(first.calls.map((call) => call.toolName)).toEqual(["inspect_issue"]);
    expect(second.calls.map((call) => call.toolName)).toEqual(["inspect_pr"]);
  });

  it("prefers an exact name over an earlier first-word match", async () => {
    const trace = await run("inspect_pr https://x.test/2", { inspect_issue: inspectIssue, inspect_pr: inspectPr });
    expect(trace.calls.map((call) => call.toolName)).toEqual(["inspect_pr"]);
  });

  it("matches first words only as whole words", async () => {
    const trace = await run("The inspection went fine", { inspect_pr: inspectPr });
    expect(trace.calls).toEqual([]);
  });

  it("takes arguments from a JSON object in the message", async () => {
    const trace = await run('get_weather {"city": "Lyon", "unit": "f"} please', { get_weather: getWeather });
    expect(trace.calls).toEqual([{ toolName: "get_weather", input: { city: "Lyon", unit: "f" } }]);
    expect(trace.text).toBe("get_weather returned: Sunny in Lyon, 21°f");
  });

  it("puts a quoted string into the first required string field", async () => {
    const trace = await run("Can you get what's the weather in 'Porto'?", { get_weather: getWeather });
    expect(trace.calls).toEqual([{ toolName: "get_weather", input: { city: "Porto" } }]);
  });

  it("explains in text when the input would fail the schema, without calling the tool", async () => {
    const missing = await run("get_weather for me", { get_weather: getWeather });
    expect(missing.calls).toEqual([]);
    expect(missing.parts).not.toContain("tool-call");
    expect(missing.text).toContain('I cannot call get_weather: the required field "city" is missing');

    const badEnum = await run('get_weather {"city": "Oslo", "unit": "kelvin"}', { get_weather: getWeather });
    expect(badEnum.calls).toEqual([]);
    expect(badEnum.text).toContain('the field "unit" must be one of "c", "f"');

    const badType = await run('get_weather {"city": 12}', { get_weather: getWeather });
    expect(badType.text).toContain('the field "city" must be a string, got an integer');
  });

  it("says so when the tool fails", async () => {
    const failing = tool({
      description: "Always fails",
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error("backend down");
      },
    });
    const trace = await run("deploy now", { deploy_app: failing });
    expect(trace.calls.map((call) => call.toolName)).toEqual(["deploy_app"]);
    expect(trace.text).toContain("deploy_app failed: backend down");
  });

  it("introduces the agent and its tools when nothing matches", async () => {
    const trace = await run("hello there", { inspect_pr: inspectPr, get_weather: getWeather }, "pr-bot");
    expect(trace.calls).toEqual([]);
    expect(trace.text).toBe(
      "I am pr-bot, running on the offline scripted model. My tools: inspect_pr, get_weather. " +
        "Mention one by name and I will call it, with its input in the message as JSON, a URL or a quoted string.",
    );
  });

  it("answers after a tool result instead of calling the tool again", async () => {
    const messages: ModelMessage[] = [
      { role: "user", content: "inspect https://x.test/9" },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "call_1", toolName: "inspect_pr", input: { url: "https://x.test/9" } }],
      },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "call_1", toolName: "inspect_pr", output: { type: "json", value: { verdict: "trivial" } } }],
      },
    ];
    const trace = await run(messages, { inspect_pr: inspectPr });
    expect(trace.calls).toEqual([]);
    expect(trace.text).toBe('inspect_pr returned: {"verdict":"trivial"}');
  });

  it("streams reasoning and text in several deltas, reports usage, and is deterministic", async () => {
    const tools = { inspect_pr: inspectPr };
    const first = await run("inspect https://x.test/3", tools);
    const second = await run("inspect https://x.test/3", tools);
    expect(first.reasoning).toBe("The message asks for inspect_pr; calling it.Summarizing the result of inspect_pr.");
    expect(first.parts).toEqual(expect.arrayContaining(["reasoning-start", "reasoning-end", "tool-input-start", "tool-input-delta", "tool-result", "text-start", "text-end", "finish"]));
    expect(first.textDeltas).toBeGreaterThan(1);
    expect(first.inputTokens).toBeGreaterThan(0);
    expect(first.outputTokens).toBeGreaterThan(0);
    expect(second).toEqual(first);
  });

  it("honours the abort signal and the step delay", async () => {
    const controller = new AbortController();
    const result = streamText({
      // A delay no test waits out: the stream ends only because the abort is honoured.
      model: createScriptedModel({ agentName: "slow", stepDelayMs: 3_600_000 }),
      prompt: "hi",
      abortSignal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);
    expect(parts).toContain("abort");
    expect(parts).not.toContain("text-delta");
  });

  it("implements doGenerate with the same decision", async () => {
    const model = createScriptedModel({ agentName: "gen" });
    const result = await model.doGenerate({
      prompt: [{ role: "user", content: [{ type: "text", text: "inspect https://x.test/4" }] }],
      tools: [{ type: "function", name: "inspect_pr", inputSchema: { type: "object", properties: { url: { type: "string" } }, required: ["url"] } }],
    });
    expect(result.content).toEqual([
      { type: "reasoning", text: "The message asks for inspect_pr; calling it." },
      { type: "tool-call", toolCallId: "call_scripted_1", toolName: "inspect_pr", input: '{"url":"https://x.test/4"}' },
    ]);
    expect(result.finishReason.unified).toBe("tool-calls");
    expect(result.usage.inputTokens.total).toBeGreaterThan(0);
  });
});

describe("scripted model from resolveModel", () => {
  it("reads BDK_SCRIPTED_DELAY_MS as a per-step delay", async () => {
    const resolved = resolveModel("scripted", { env: { BDK_SCRIPTED_DELAY_MS: "300" }, agentName: "slow" });
    const started = Date.now();
    const result = streamText({ model: resolved.model, prompt: "hi" });
    expect(await result.text).toContain("I am slow");
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });
});
