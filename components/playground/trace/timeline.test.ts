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

  it("builds 5,000 events quickly", () => {
    const events = syntheticEvents("ses_1", 5000);
    const started = performance.now();
    const timeline = buildTimeline(events);
    expect(performance.now() - started).toBeLessThan(100);
    expect(timeline.rows.length).toBeGreaterThan(500);
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
