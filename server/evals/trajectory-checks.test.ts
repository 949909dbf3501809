import { describe, expect, it } from "vitest";
import type { AnyBdkEvent, EventDraft } from "../protocol/events.ts";
import { describeValue, matchesPartially } from "./match.ts";
import * as checks from "./trajectory-checks.ts";

/** A turn's events with gap-free indexes, like the session log stores them. */
function turn(...drafts: EventDraft[]): AnyBdkEvent[] {
  return drafts.map((draft, index) => ({ ...draft, index, sessionId: "ses_1", turnId: "turn_1", at: "2025-01-01T00:00:00.000Z" }) as AnyBdkEvent);
}

const call = (toolCallId: string, name: string, input: unknown): EventDraft[] => [
  { type: "actions.requested", data: { actions: [{ toolCallId, name, input }] } },
  { type: "action.result", data: { toolCallId, name, output: { ok: true }, isError: false, durationMs: 1 } },
];
const completed: EventDraft = { type: "turn.completed", data: { result: "done", usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 }, durationMs: 5 } };

const events = turn(
  ...call("c1", "inspect_pr", { prUrl: "https://github.com/acme/checkout/pull/42", options: { deep: true, tags: ["a", "b"] } }),
  ...call("c2", "load_skill", { name: "triage" }),
  { type: "subagent.called", data: { subagent: "researcher", toolCallId: "c3", prompt: "look" } },
  ...call("c4", "submit_review", { verdict: "approve" }),
  completed,
);

describe("matchesPartially", () => {
  it("matches nested subsets, RegExp values and whole arrays", () => {
    const input = { prUrl: "https://github.com/acme/checkout/pull/42", options: { deep: true, tags: ["a", "b"] } };
    expect(matchesPartially(input, { prUrl: /pull\/42$/ })).toBe(true);
    expect(matchesPartially(input, { options: { deep: true } })).toBe(true);
    expect(matchesPartially(input, { options: { tags: ["a", /^b$/] } })).toBe(true);
    expect(matchesPartially(input, { options: { tags: ["a"] } })).toBe(false);
    expect(matchesPartially(input, { prUrl: /pull\/43$/ })).toBe(false);
    expect(matchesPartially(input, { missing: undefined })).toBe(true);
    expect(matchesPartially({ n: 1 }, { n: "1" })).toBe(false);
    expect(matchesPartially("text", /ex/g)).toBe(true);
    expect(describeValue({ re: /x/i })).toBe("{ re: /x/i }");
    expect(describeValue({ a: [1, "b"] })).toBe('{"a":[1,"b"]}');
    expect(describeValue("x".repeat(300), 10)).toBe('"xxxxxx...');
  });
});

describe("trajectory checks", () => {
  it("pass on what the turn did", () => {
    expect(checks.succeeded(events).passed).toBe(true);
    expect(checks.calledTool(events, "inspect_pr", { input: { prUrl: /acme\/checkout/ } }).passed).toBe(true);
    expect(checks.calledTool(events, "inspect_pr", { count: 1 }).passed).toBe(true);
    expect(checks.notCalledTool(events, "approve_pr").passed).toBe(true);
    expect(checks.toolOrder(events, ["inspect_pr", "submit_review"]).passed).toBe(true);
    expect(checks.calledSubagent(events, "researcher").passed).toBe(true);
    expect(checks.loadedSkill(events, "triage").passed).toBe(true);
    expect(checks.maxToolCalls(events, 3).passed).toBe(true);
    expect(checks.usedNoTools(turn(completed)).passed).toBe(true);
  });

  it("fail with a message that shows what the turn actually did", () => {
    expect(checks.calledTool(events, "inspect_pr", { input: { prUrl: /pull\/99/ } })).toEqual({
      passed: false,
      message: expect.stringMatching(/expected a call to inspect_pr with input matching \{ prUrl: \/pull\\\/99\/ \}; calls: inspect_pr \{"prUrl":".*pull\/42/),
    });
    expect(checks.calledTool(events, "inspect_pr", { count: 2 }).message).toMatch(/expected 2 call\(s\) to inspect_pr; 1 matched; calls: /);
    expect(checks.notCalledTool(events, "submit_review").message).toBe('expected no call to submit_review; calls: submit_review {"verdict":"approve"}');
    expect(checks.toolOrder(events, ["submit_review", "inspect_pr"]).message).toBe(
      "expected submit_review → inspect_pr; actual order: inspect_pr → load_skill → submit_review",
    );
    expect(checks.calledSubagent(turn(completed), "researcher").message).toBe("expected subagent researcher; no subagent was called");
    expect(checks.loadedSkill(events, "release-notes").message).toBe("expected skill release-notes to be loaded; loaded: triage");
    expect(checks.usedNoTools(events).passed).toBe(false);
    expect(checks.maxToolCalls(events, 1).message).toMatch(/^3 tool call\(s\), expected at most 1; calls: inspect_pr/);
    expect(checks.failed(events)).toEqual({ passed: false, message: "expected the turn to fail, but the turn completed" });
  });

  it("describe failed and unfinished turns", () => {
    const failedTurn = turn({ type: "turn.failed", data: { status: "failed", code: "model_unavailable", message: "no key" } });
    expect(checks.failed(failedTurn)).toEqual({ passed: true, message: "the turn failed (model_unavailable): no key" });
    expect(checks.succeeded(failedTurn).message).toBe("the turn failed (model_unavailable): no key");
    const parked = turn({
      type: "action.approval_requested",
      data: { approvalId: "apr_1", toolCallId: "c1", name: "submit_review", input: {} },
    });
    expect(checks.succeeded(parked).message).toMatch(/waits for an approval \(use await t.approve\(\) or t.deny\(\)\)/);
  });
});
