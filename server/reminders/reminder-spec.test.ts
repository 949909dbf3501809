import { describe, expect, it } from "vitest";
import { parseDuration } from "./durations.ts";
import { firstFireAt, nextFireAfter, reminderMessage, timingOf } from "./reminder-spec.ts";

describe("parseDuration", () => {
  it("reads single and combined units", () => {
    expect(parseDuration("30m")).toBe(1_800_000);
    expect(parseDuration("2h")).toBe(7_200_000);
    expect(parseDuration("1d")).toBe(86_400_000);
    expect(parseDuration("1h30m")).toBe(5_400_000);
    expect(parseDuration("90s")).toBe(90_000);
  });

  it("refuses anything else", () => {
    for (const text of ["", "soon", "10", "2 hours", "5m later", "0m"]) expect(parseDuration(text)).toBeUndefined();
  });
});

describe("reminder timing", () => {
  const now = new Date("2026-03-02T09:00:00Z");

  it("takes exactly one of delay, at, every or cron", () => {
    expect(() => timingOf({})).toThrow(/one of delay, at, every or cron/);
    expect(() => timingOf({ delay: "1h", every: "1h" })).toThrow(/exactly one.*delay, every/);
    expect(() => timingOf({ delay: "tomorrow" })).toThrow(/not a duration/);
    expect(() => timingOf({ at: "next week" })).toThrow(/ISO/);
    expect(() => timingOf({ cron: "* * *" })).toThrow(/5/);
    expect(timingOf({ every: "30m" })).toEqual({ kind: "every", value: "30m" });
  });

  it("one-shots fire once; recurring ones keep their cadence and skip missed ticks", () => {
    expect(firstFireAt({ kind: "delay", value: "2h" }, now).toISOString()).toBe("2026-03-02T11:00:00.000Z");
    expect(firstFireAt({ kind: "at", value: "2026-03-03T00:00:00Z" }, now).toISOString()).toBe("2026-03-03T00:00:00.000Z");
    expect(firstFireAt({ kind: "cron", value: "0 12 * * *" }, now).toISOString()).toBe("2026-03-02T12:00:00.000Z");
    expect(nextFireAfter({ kind: "delay", value: "2h" }, now, now)).toBeUndefined();

    const every = { kind: "every" as const, value: "30m" };
    expect(nextFireAfter(every, now, now)?.toISOString()).toBe("2026-03-02T09:30:00.000Z");
    // Down for 2h05: the next tick is the first one still ahead, not four replays.
    expect(nextFireAfter(every, now, new Date("2026-03-02T11:05:00Z"))?.toISOString()).toBe("2026-03-02T11:30:00.000Z");
    expect(nextFireAfter({ kind: "cron", value: "0 * * * *" }, now, new Date("2026-03-02T09:00:05Z"))?.toISOString()).toBe(
      "2026-03-02T10:00:00.000Z",
    );
  });

  it("shows the model the standing cancellation condition", () => {
    const spec = { channelId: "drive", timing: { kind: "every" as const, value: "2h" }, purpose: "ci_recheck", until: "CI is green." };
    const text = reminderMessage("rem_1", spec, "Re-check CI.");
    expect(text).toContain("[Reminder rem_1 (ci_recheck)]");
    expect(text).toContain("Re-check CI.");
    expect(text).toContain("Standing condition: CI is green.");
    expect(text).toContain('reminders_cancel with id "rem_1"');
    // A one-shot has already fired: nothing is left to cancel.
    const once = reminderMessage("rem_2", { ...spec, timing: { kind: "delay", value: "2h" } }, "Re-check CI.");
    expect(once).toContain("Standing condition: CI is green. When it holds, there is nothing to do.");
  });
});
