import * as incubating from "@opentelemetry/semantic-conventions/incubating";
import { describe, expect, it } from "vitest";
import type { EventDraft } from "../protocol/events.ts";
import { GEN_AI, GEN_AI_METRICS } from "./gen-ai.ts";
import { planTurn, type SpanPlan } from "./span-plan.ts";
import type { Observation, TurnRecord } from "./turn-recorder.ts";

const USAGE = { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0 };
const MODEL = { id: "openai/gpt-5", provider: "openai.responses", requestModel: "gpt-5", responseModel: "gpt-5-2025", responseId: "resp_1" };
const OPTIONS = { agentName: "shop", captureContent: false, contentLimit: 100 };

/** Observations at the given epoch-millisecond times. */
function turn(...events: [number, EventDraft][]): TurnRecord {
  return {
    sessionId: "ses_1",
    turnId: "turn_1",
    observations: events.map(([time, draft]) => ({ type: draft.type, data: draft.data, time }) as Observation),
    subagents: new Map(),
  };
}

const call = (toolCallId: string, name: string) => ({ toolCallId, name, input: { id: toolCallId } });
const result = (toolCallId: string, name: string, durationMs: number, isError = false): EventDraft => ({
  type: "action.result",
  data: { toolCallId, name, output: isError ? "boom" : { ok: true }, isError, durationMs },
});

function names(span: SpanPlan): unknown {
  return span.children.length === 0 ? span.name : { [span.name]: span.children.map(names) };
}

describe("planTurn", () => {
  it("lays a step's tool calls out one after another, after its model call, even when stored in one millisecond", () => {
    const plan = planTurn(
      turn(
        [1000, { type: "message.received", data: { message: "look up A and B" } }],
        [1004, { type: "turn.started", data: { model: "openai/gpt-5", botVersion: "abc123" } }],
        [1004, { type: "step.started", data: { step: 0 } }],
        [1300, { type: "actions.requested", data: { actions: [call("c1", "lookup"), call("c2", "lookup")] } }],
        [1300, result("c1", "lookup", 3)],
        [1300, result("c2", "lookup", 2)],
        [1300, { type: "step.completed", data: { step: 0, durationMs: 301, finishReason: "tool-calls", usage: USAGE, model: MODEL, modelDurationMs: 290 } }],
        [1300, { type: "step.started", data: { step: 1 } }],
        [1500, { type: "step.completed", data: { step: 1, durationMs: 200, finishReason: "stop", usage: USAGE, model: MODEL, modelDurationMs: 200 } }],
        [1500, { type: "turn.completed", data: { result: "A and B", usage: { ...USAGE, inputTokens: 20, outputTokens: 10 }, durationMs: 496 } }],
      ),
      OPTIONS,
    );
    expect(names(plan.root)).toEqual({ "invoke_agent shop": ["chat gpt-5", "execute_tool lookup", "execute_tool lookup", "chat gpt-5"] });
    const [chat, first, second, next] = plan.root.children;
    expect([chat.start, chat.end]).toEqual([1004, 1294]);
    expect([first.start, first.end]).toEqual([1297, 1300]);
    expect([second.start, second.end]).toEqual([1300, 1302]);
    // The next step cannot start before the tools it answers.
    expect([next.start, next.end]).toEqual([1302, 1502]);
    expect([plan.root.start, plan.root.end]).toEqual([1004, 1502]);
    expect(plan.queueWaitMs).toBe(4);
    expect(chat.attributes).toMatchObject({
      [GEN_AI.providerName]: "openai",
      [GEN_AI.requestModel]: "gpt-5",
      [GEN_AI.responseModel]: "gpt-5-2025",
      [GEN_AI.responseId]: "resp_1",
      [GEN_AI.finishReasons]: ["tool_call"],
    });
    expect(plan.root.attributes).toMatchObject({ [GEN_AI.agentVersion]: "abc123", [GEN_AI.inputTokens]: 20, [GEN_AI.outputTokens]: 10 });
  });

  it("marks the model call and the turn failed when the provider fails, and a cancelled turn as no error", () => {
    const failed = planTurn(
      turn(
        [1000, { type: "turn.started", data: { model: "openai/gpt-5" } }],
        [1000, { type: "step.started", data: { step: 0 } }],
        [1800, { type: "turn.failed", data: { status: "failed", code: "model_error", message: "429 Too Many Requests" } }],
      ),
      OPTIONS,
    );
    expect(failed.status).toBe("failed");
    expect(failed.root.error).toEqual({ type: "model_error", message: "429 Too Many Requests" });
    expect(failed.root.children[0]).toMatchObject({
      name: "chat openai/gpt-5",
      end: 1800,
      error: { type: "model_error", message: "429 Too Many Requests" },
    });

    const cancelled = planTurn(
      turn(
        [1000, { type: "turn.queued", data: { position: 1 } }],
        [1200, { type: "turn.failed", data: { status: "cancelled", code: "preempted", message: "A new message interrupted this turn." } }],
      ),
      OPTIONS,
    );
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.root.error).toBeUndefined();
    expect(cancelled.root.attributes["bdk.turn.status"]).toBe("cancelled");
  });

  it("names a failed tool call without its output unless content is captured", () => {
    const events: [number, EventDraft][] = [
      [1000, { type: "step.started", data: { step: 0 } }],
      [1010, { type: "actions.requested", data: { actions: [call("c1", "deploy")] } }],
      [1020, result("c1", "deploy", 10, true)],
      [1020, { type: "step.completed", data: { step: 0, durationMs: 20, finishReason: "tool-calls", usage: USAGE } }],
      [1030, { type: "turn.completed", data: { result: "", usage: USAGE, durationMs: 30 } }],
    ];
    const quiet = planTurn(turn(...events), OPTIONS).root.children[1];
    expect(quiet.error).toEqual({ type: "tool_error", message: "The tool reported an error." });
    expect(quiet.attributes).not.toHaveProperty(GEN_AI.toolCallResult);

    const told = planTurn(turn(...events), { ...OPTIONS, captureContent: true }).root.children[1];
    expect(told.error).toEqual({ type: "tool_error", message: "boom" });
    expect(told.attributes).toMatchObject({ [GEN_AI.toolCallArguments]: '{"id":"c1"}', [GEN_AI.toolCallResult]: "boom" });
  });

  it("shows a step resumed after a restart as its tool calls alone: its model call happened in the previous process", () => {
    const plan = planTurn(
      turn(
        [5000, result("c1", "approve_pr", 40)],
        [5000, { type: "step.completed", data: { step: 0, durationMs: 0, finishReason: "tool-calls", usage: USAGE } }],
        [5000, { type: "step.started", data: { step: 1 } }],
        [5100, { type: "step.completed", data: { step: 1, durationMs: 100, finishReason: "stop", usage: USAGE, model: MODEL, modelDurationMs: 100 } }],
        [5100, { type: "turn.completed", data: { result: "approved", usage: USAGE, durationMs: 140 } }],
      ),
      OPTIONS,
    );
    expect(names(plan.root)).toEqual({ "invoke_agent shop": ["execute_tool approve_pr", "chat gpt-5"] });
    expect(plan.queueWaitMs).toBeUndefined();
  });

  it("nests a subagent under its task call, moved to start with it when its own clock runs ahead", () => {
    const record = turn(
      [1000, { type: "step.started", data: { step: 0 } }],
      [1010, { type: "actions.requested", data: { actions: [call("t1", "task")] } }],
      [1010, { type: "subagent.called", data: { subagent: "researcher", toolCallId: "t1", prompt: "find it" } }],
      [1060, { type: "subagent.completed", data: { subagent: "researcher", toolCallId: "t1", result: "found", isError: false } }],
      [1060, result("t1", "task", 50)],
      [1060, { type: "step.completed", data: { step: 0, durationMs: 60, finishReason: "tool-calls", usage: USAGE, model: MODEL, modelDurationMs: 10 } }],
      [1070, { type: "turn.completed", data: { result: "found", usage: USAGE, durationMs: 70 } }],
    );
    record.subagents.set("t1", [
      { type: "turn.started", data: { model: "openai/gpt-5" }, time: 1005 },
      { type: "step.started", data: { step: 0 }, time: 1005 },
      { type: "step.completed", data: { step: 0, durationMs: 40, finishReason: "stop", usage: USAGE, model: MODEL, modelDurationMs: 40 }, time: 1045 },
    ]);
    const plan = planTurn(record, OPTIONS);
    expect(names(plan.root)).toEqual({ "invoke_agent shop": ["chat gpt-5", { "execute_tool task": [{ "invoke_agent researcher": ["chat gpt-5"] }] }] });
    const task = plan.root.children[1];
    const subagent = task.children[0];
    expect([task.start, task.end]).toEqual([1010, 1060]);
    expect([subagent.start, subagent.end, subagent.children[0].end]).toEqual([1010, 1050, 1050]);
  });
});

describe("the GenAI names", () => {
  it("are spelled as @opentelemetry/semantic-conventions spells them", () => {
    const known = new Set(Object.values(incubating).filter((value) => typeof value === "string"));
    for (const name of [...Object.values(GEN_AI), ...Object.values(GEN_AI_METRICS)]) expect(known, name).toContain(name);
  });
});
