import { describe, expect, it } from "vitest";
import type { AnyBdkEvent } from "../protocol/events.ts";
import { diffRuns, sharedStart, summarizeRun } from "./run-diff.ts";

const usage = (inputTokens: number) => ({ inputTokens, outputTokens: 1, cachedInputTokens: 0 });
const event = (index: number, type: string, data: unknown) => ({ index, type, data, sessionId: "s", turnId: "t", at: "" }) as AnyBdkEvent;

/** One turn: message, one call of `tool` answering `output`, the reply. */
const turn = (from: number, message: string, output: unknown, reply: string, tokens: number): AnyBdkEvent[] => [
  event(from, "message.received", { message }),
  event(from + 1, "turn.started", { model: "scripted" }),
  event(from + 2, "actions.requested", { actions: [{ toolCallId: `c${from}`, name: "price", input: { sku: "A1" } }] }),
  event(from + 3, "action.result", { toolCallId: `c${from}`, name: "price", output, isError: false, durationMs: from }),
  event(from + 4, "message.completed", { text: reply, finishReason: "stop" }),
  event(from + 5, "turn.completed", { result: reply, usage: usage(tokens), durationMs: 10 }),
];

describe("diffRuns", () => {
  it("pairs turns by position from the shared point, marks what differs and ignores call durations", () => {
    const shared = turn(1, "hello", 1, "hi", 5);
    const before = summarizeRun("a", [...shared, ...turn(7, "price?", 42, "42", 20), ...turn(13, "thanks", 0, "bye", 3)], 7);
    const after = summarizeRun("b", [...shared, ...turn(7, "price?", 7, "7", 18)], 7);
    const diff = diffRuns(before, after);
    expect(diff.turns.map(({ messageChanged, replyChanged, toolCallsChanged }) => [messageChanged, replyChanged, toolCallsChanged])).toEqual([
      [false, true, true],
      [true, true, true],
    ]);
    expect(diff.turns[1].after).toBeUndefined();
    expect(diff.delta).toEqual({ inputTokens: 18 - 23, outputTokens: 1 - 2, durationMs: -10 });
    expect(diff.identical).toBe(false);
    const same = diffRuns(summarizeRun("a", turn(1, "x", 1, "y", 1), 0), summarizeRun("b", turn(1, "x", 1, "y", 9).map((e) => (e.type === "action.result" ? { ...e, data: { ...e.data, durationMs: 99 } } : e)), 0));
    expect(same.identical).toBe(true);
  });
});

describe("sharedStart", () => {
  const fork = (parentId: string, forkedAt: number) => ({ parentId, forkedAt, overrides: {} });
  it("is the cut for a fork and its source either way round, for two forks of one cut, else 0", () => {
    expect(sharedStart({ id: "a", fork: null }, { id: "b", fork: fork("a", 7) })).toBe(7);
    expect(sharedStart({ id: "b", fork: fork("a", 7) }, { id: "a", fork: null })).toBe(7);
    expect(sharedStart({ id: "b", fork: fork("a", 7) }, { id: "c", fork: fork("a", 7) })).toBe(7);
    expect(sharedStart({ id: "b", fork: fork("a", 7) }, { id: "c", fork: fork("a", 1) })).toBe(0);
    expect(sharedStart({ id: "x", fork: null }, { id: "y", fork: null })).toBe(0);
  });
});
