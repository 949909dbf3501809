import { describe, expect, it } from "vitest";
import { syntheticEvents } from "../../../e2e/synthetic-session.ts";
import { buildTimeline } from "./timeline.ts";

describe("buildTimeline", () => {
  it("nests steps, tool calls and approvals under their turn with durations and tokens", () => {
    const events = syntheticEvents("ses_1", 40);
    const timeline = buildTimeline(events);
    const [turn, step0, tool, step1] = timeline.rows;
    expect(turn).toMatchObject({ kind: "turn", label: "Turn 1", depth: 0, status: "ok", tokens: { input: 800, output: 80 } });
    expect(step0).toMatchObject({ kind: "step", depth: 1, tokens: { input: 400, output: 40 } });
    expect(tool).toMatchObject({ kind: "tool", label: "inspect_pr", depth: 2, status: "error" });
    expect(tool.end! - tool.start).toBe(40);
    expect(step1).toMatchObject({ kind: "step", label: "Step 1" });
    expect(timeline.totals.turns).toBeGreaterThanOrEqual(1);
  });

  it("lays out a 5,000-event session (its speed is measured by bench/playground)", () => {
    const events = syntheticEvents("ses_1", 5000);
    const timeline = buildTimeline(events);
    expect(timeline.rows.length).toBeGreaterThan(500);
  });

  it("marks a tool call in doubt, then what the person who checked it found", () => {
    const events = syntheticEvents("ses_1", 40);
    const requested = events.find((event) => event.type === "actions.requested")!;
    const [{ toolCallId, name }] = (requested.data as { actions: { toolCallId: string; name: string }[] }).actions;
    const at = requested.at;
    const base = { sessionId: "ses_1", turnId: requested.turnId, at };
    const inDoubt = { ...base, index: 9001, type: "action.in_doubt", data: { toolCallId, name, input: {}, effect: "write", startedAt: at, message: "The server stopped mid-call." } };
    const resolved = { ...base, index: 9002, type: "action.in_doubt_resolved", data: { toolCallId, name, resolution: "not_done", by: "user:ada" } };
    const before = buildTimeline([...events, inDoubt] as typeof events).rows.find((row) => row.kind === "tool" && row.tool?.inDoubt);
    expect(before).toMatchObject({ status: "error", note: "in doubt" });
    const after = buildTimeline([...events, inDoubt, resolved] as typeof events).rows.find((row) => row.kind === "tool" && row.tool?.inDoubt);
    expect(after?.note).toBe("in doubt · checked by user:ada: it did not take effect");
  });

  it("leaves a running turn open up to now", () => {
    const events = syntheticEvents("ses_1", 40).slice(0, 6);
    const now = Date.parse(events[5].at) + 1000;
    const timeline = buildTimeline(events, now);
    expect(timeline.rows[0]).toMatchObject({ kind: "turn", status: "running" });
    expect(timeline.rows[0].end).toBeUndefined();
    expect(timeline.end).toBe(now);
  });
});
