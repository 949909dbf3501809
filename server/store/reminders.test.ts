import { afterEach, describe, expect, it } from "vitest";
import { manualClock, tempRoots } from "./testing/temp-root.ts";

const roots = tempRoots();
afterEach(() => roots.cleanup());

describe("store.reminders", () => {
  it("keeps armed reminders across a restart, soonest first", () => {
    const time = manualClock();
    const stateRoot = roots.root();
    const store = roots.open(stateRoot, time.clock);
    const spec = { purpose: "ci_recheck", channelId: "drive", continuationToken: "pr:acme/checkout#42", delay: "2h" };
    const later = store.reminders.create({ spec, nextFireAt: "2025-01-01T02:00:00.000Z" });
    const sooner = store.reminders.create({ spec: { ...spec, delay: "30m" }, nextFireAt: "2025-01-01T00:30:00.000Z" });
    const gone = store.reminders.create({ spec, nextFireAt: "2025-01-01T01:00:00.000Z" });
    expect(later).toMatchObject({ id: expect.stringMatching(/^rem_/), status: "armed", spec, lastFiredAt: null });
    time.advance(60_000);
    expect(store.reminders.update(gone.id, { status: "cancelled" })).toMatchObject({
      status: "cancelled",
      updatedAt: "2025-01-01T00:01:00.000Z",
    });
    store.close();

    const reopened = roots.open(stateRoot, time.clock);
    expect(reopened.reminders.list({ status: "armed" }).map((r) => r.id)).toEqual([sooner.id, later.id]);
    expect(reopened.reminders.list()).toHaveLength(3);
    expect(reopened.reminders.get(later.id)?.spec).toEqual(spec);
    expect(reopened.reminders.delete(gone.id)).toBe(true);
    expect(reopened.reminders.get(gone.id)).toBeUndefined();
  });
});
