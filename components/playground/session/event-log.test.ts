import { describe, expect, it } from "vitest";
import type { AnyBdkEvent } from "../../api/types.ts";
import { EventLog } from "./event-log.ts";

const event = (index: number): AnyBdkEvent => ({ type: "session.waiting", index, sessionId: "ses_1", at: "2026-01-01T00:00:00Z", data: {} });

describe("EventLog", () => {
  it("keeps each index once when a replay overlaps the live stream", () => {
    const log = new EventLog();
    for (const index of [0, 1, 2]) log.add(event(index));
    expect(log.add(event(1))).toBe(false);
    expect(log.add(event(2))).toBe(false);
    expect(log.add(event(3))).toBe(true);
    expect(log.events.map((e) => e.index)).toEqual([0, 1, 2, 3]);
    expect(log.lastIndex).toBe(3);
  });

  it("orders a late arrival by index", () => {
    const log = new EventLog();
    log.add(event(0));
    log.add(event(2));
    log.add(event(1));
    expect(log.events.map((e) => e.index)).toEqual([0, 1, 2]);
  });

  it("ignores values that are not events", () => {
    const log = new EventLog();
    expect(log.add({ nope: true } as unknown as AnyBdkEvent)).toBe(false);
    expect(log.lastIndex).toBe(-1);
  });
});
