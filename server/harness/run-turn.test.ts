import { describe, expect, it } from "vitest";
import { z } from "zod";
import { zodTool } from "../../test/support/tools.ts";
import type { ToolContext } from "../authoring/tools.ts";
import { createScriptedModel } from "../models/index.ts";
import type { EventDraft } from "../protocol/events.ts";
import { runTurn } from "./run-turn.ts";

const inspect = zodTool("inspect_pr", z.object({ prUrl: z.string().url() }), ({ prUrl }) => ({
  prUrl,
  complexity: "trivial",
}));
const broken = zodTool("explode_now", z.object({}), () => {
  throw new Error("the fixture server is down");
});

function turn(message: string, tools = [inspect, broken]) {
  const events: EventDraft[] = [];
  const result = runTurn({
    system: "test",
    history: [],
    message,
    tools,
    models: [{ id: "scripted", model: createScriptedModel({ agentName: "tester" }) }],
    isModelUnavailable: () => false,
    toolContext: () => ({ session: { id: "ses_test" }, abortSignal: new AbortController().signal }) as ToolContext,
    abortSignal: new AbortController().signal,
    emit: (draft) => events.push(draft),
  });
  return { events, result };
}

describe("runTurn with the scripted model", () => {
  it("calls the tool the message names, then answers quoting the result", async () => {
    const { events, result } = turn("Inspect https://github.com/acme/checkout/pull/42");
    const { text, usage } = await result;
    const types = events.map((event) => event.type);
    expect(types[0]).toBe("turn.started");
    const requested = events.find((event) => event.type === "actions.requested");
    expect(requested?.data).toMatchObject({
      actions: [{ name: "inspect_pr", input: { prUrl: "https://github.com/acme/checkout/pull/42" } }],
    });
    const outcome = events.find((event) => event.type === "action.result");
    expect(outcome?.data).toMatchObject({ name: "inspect_pr", isError: false, output: { complexity: "trivial" } });
    expect(text).toContain("trivial");
    expect(types.filter((type) => type === "step.completed")).toHaveLength(2);
    expect(types).toContain("message.appended");
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);
  });

  it("runs no call of a resumed step once the turn is stopped, and stops between calls", async () => {
    let runs = 0;
    const stopper = new AbortController();
    const counted = zodTool("inspect_pr", z.object({ prUrl: z.string() }), () => (runs++, stopper.abort(new Error("stopped")), { ok: true }));
    const calls = [1, 2].map((n) => ({ toolCallId: `c${n}`, name: "inspect_pr", input: { prUrl: `https://x.test/${n}` } }));
    const resumed = (abortSignal: AbortSignal) =>
      runTurn({
        system: "test",
        history: [],
        resume: { step: 0, text: "", calls, results: new Map() },
        tools: [counted],
        models: [{ id: "scripted", model: createScriptedModel({ agentName: "tester" }) }],
        isModelUnavailable: () => false,
        toolContext: () => ({ session: { id: "ses_test" }, abortSignal }) as ToolContext,
        abortSignal,
        emit: () => undefined,
      });
    const stoppedBefore = new AbortController();
    stoppedBefore.abort(new Error("stopped"));
    await expect(resumed(stoppedBefore.signal)).rejects.toThrow("stopped");
    expect(runs).toBe(0);
    // Stopped during the first call: the second never starts.
    await expect(resumed(stopper.signal)).rejects.toThrow("stopped");
    expect(runs).toBe(1);
  });

  it("hands a thrown tool error back to the model and finishes the turn", async () => {
    const { events, result } = turn("please explode_now");
    const { text } = await result;
    const outcome = events.find((event) => event.type === "action.result");
    expect(outcome?.data).toMatchObject({ name: "explode_now", isError: true, output: "the fixture server is down" });
    expect(text).toMatch(/error|failed|down/i);
  });

  it("returns invalid input to the model as an error naming the field", async () => {
    const strict = zodTool("inspect_pr", z.object({ prUrl: z.string().url(), depth: z.number().min(2) }), () => "ran");
    const { events, result } = turn('inspect_pr {"prUrl": "https://x.test/1", "depth": 1}', [strict]);
    await result;
    const outcome = events.find((event) => event.type === "action.result");
    expect(outcome?.data.isError).toBe(true);
    expect(String((outcome?.data as { output: unknown }).output)).toContain("depth");
  });

  it("answers without tools when none matches, naming the agent", async () => {
    const { events, result } = turn("hello there");
    const { text } = await result;
    expect(events.some((event) => event.type === "actions.requested")).toBe(false);
    expect(text).toContain("tester");
  });

  it("falls back to the next model when the first is unavailable", async () => {
    const failing = createScriptedModel({ agentName: "x" });
    failing.doStream = async () => {
      throw Object.assign(new Error("503"), { statusCode: 503 });
    };
    const events: EventDraft[] = [];
    const result = await runTurn({
      system: "s",
      history: [],
      message: "hello",
      tools: [],
      models: [
        { id: "first", model: failing },
        { id: "scripted", model: createScriptedModel({ agentName: "backup" }) },
      ],
      isModelUnavailable: () => true,
      toolContext: () => ({ session: { id: "ses_test" }, abortSignal: new AbortController().signal }) as ToolContext,
      abortSignal: new AbortController().signal,
      emit: (draft) => events.push(draft),
    });
    expect(result.model).toBe("scripted");
    expect(result.text).toContain("backup");
  });
});
