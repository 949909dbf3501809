/**
 * Per-tool-call overhead of the harness: one turn in which the model asks for
 * a no-op server tool 1,000 times, against a turn that asks for none; the
 * difference divided by 1,000. Each call goes through input validation, the
 * approval gate, execution, an `action.result` event (stored and published)
 * and the tool result handed back to the model.
 * Run: npx tsx bench/harness/run.ts [calls=1000]
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { z } from "zod";
import { startTestRuntime } from "../../test/support/runtime.ts";
import { testAgent, zodTool } from "../../test/support/tools.ts";

const calls = Number(process.argv[2] ?? 1000);

/** A model that asks for `count` calls of `noop` in its first step, then answers. */
function fanOutModel(count: number): LanguageModelV3 {
  const stream = (parts: LanguageModelV3StreamPart[]) =>
    new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
  const usage = {
    inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 10, text: 10, reasoning: 0 },
  };
  return {
    specificationVersion: "v3",
    provider: "bench",
    modelId: "fan-out",
    supportedUrls: {},
    async doGenerate() {
      throw new Error("stream only");
    },
    async doStream(options) {
      const answered = options.prompt.some((message) => message.role === "tool");
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if (answered || count === 0) {
        parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "done" }, { type: "text-end", id: "t" });
        parts.push({ type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage });
      } else {
        for (let i = 0; i < count; i++) {
          parts.push({ type: "tool-call", toolCallId: `c${i}`, toolName: "noop", input: "{}" });
        }
        parts.push({ type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage });
      }
      return { stream: stream(parts) };
    },
  } as LanguageModelV3;
}

async function timeTurn(count: number): Promise<number> {
  const { runtime, close } = startTestRuntime({
    stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-bench-harness-")),
    agent: testAgent([zodTool("noop", z.object({}), () => null)], { config: { tools: [] } }),
    models: [{ id: "fan-out", model: fanOutModel(count) }],
  });
  const started = performance.now();
  const end = await (await runtime.startSession({ message: "go", principal: { type: "user", id: "local" } })).done;
  const ms = performance.now() - started;
  if (end.status !== "completed") throw new Error(`turn ${end.status}: ${"message" in end ? end.message : ""}`);
  await close();
  return ms;
}

await timeTurn(10); // warm up
const baseline = Math.min(await timeTurn(0), await timeTurn(0), await timeTurn(0));
const loaded = Math.min(await timeTurn(calls), await timeTurn(calls), await timeTurn(calls));
console.log(
  `harness overhead per tool call: ${((loaded - baseline) / calls).toFixed(3)} ms (${calls} no-op calls in one turn: ${loaded.toFixed(0)} ms; turn without calls: ${baseline.toFixed(1)} ms; target < 1 ms)`,
);
