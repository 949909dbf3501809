import { describe, expect, it } from "vitest";
import type { AnyBdkEvent } from "./events.ts";
import { canForkAfter, isAfterFinalAnswer } from "./fork-points.ts";

const event = (index: number, type: string, data: unknown, turnId?: string) =>
  ({ index, type, data, sessionId: "ses_1", at: "2026-01-01T00:00:00.000Z", ...(turnId ? { turnId } : {}) }) as AnyBdkEvent;

// A tool step whose text came with its calls, then a step whose answer result.ts rejected, then the final answer.
const events = [
  event(0, "session.started", {}),
  event(1, "message.received", { message: "price of A1" }, "t1"),
  event(2, "turn.started", { model: "scripted" }, "t1"),
  event(3, "step.started", { step: 0 }, "t1"),
  event(4, "message.completed", { text: "Looking it up.", finishReason: "tool-calls" }, "t1"),
  event(5, "actions.requested", { actions: [{ toolCallId: "c1", name: "price", input: { sku: "A1" } }] }, "t1"),
  event(6, "action.result", { toolCallId: "c1", name: "price", output: { price: 42 }, isError: false, durationMs: 1 }, "t1"),
  event(7, "step.completed", { step: 0 }, "t1"),
  event(8, "step.started", { step: 1 }, "t1"),
  event(9, "message.completed", { text: "maybe 42", finishReason: "stop" }, "t1"),
  event(10, "step.completed", { step: 1 }, "t1"),
  event(11, "step.started", { step: 2 }, "t1"),
  event(12, "message.completed", { text: "A1 costs 42.", finishReason: "stop" }, "t1"),
  event(13, "step.completed", { step: 2 }, "t1"),
  event(14, "turn.completed", { result: "ok" }, "t1"),
  event(15, "session.waiting", {}),
  event(16, "message.received", { message: "and B2?" }, "t2"),
  event(17, "turn.started", { model: "scripted" }, "t2"),
  event(18, "step.started", { step: 0 }, "t2"),
  event(19, "message.completed", { text: "B2 costs", finishReason: "stop" }, "t2"),
];

describe("fork points", () => {
  it("offers a cut after each event of a turn before its final answer: not its message, its answer and what follows, or session events", () => {
    expect(events.filter((candidate) => canForkAfter(events, candidate.index)).map((candidate) => candidate.index)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 17, 18, 19]);
  });

  it("counts only the last step's text of a completed turn as its final answer", () => {
    expect(isAfterFinalAnswer(events, 12)).toBe(true);
    expect(isAfterFinalAnswer(events, 13)).toBe(true);
    // Text before tool calls, and an answer result.ts sent back, were followed by more steps.
    expect(isAfterFinalAnswer(events, 4)).toBe(false);
    expect(isAfterFinalAnswer(events, 9)).toBe(false);
    // A turn still running (or one that failed) has no final answer yet.
    expect(isAfterFinalAnswer(events, 19)).toBe(false);
    expect(isAfterFinalAnswer(events, 0)).toBe(false);
  });
});
