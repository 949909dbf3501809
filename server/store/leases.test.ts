import { afterEach, describe, expect, it } from "vitest";
import { manualClock, tempRoots } from "./testing/temp-root.ts";

const roots = tempRoots();
afterEach(() => roots.cleanup());

describe("store.leases", () => {
  it("is held by one store at a time until it expires or is released", () => {
    const time = manualClock();
    const stateRoot = roots.root();
    const a = roots.open(stateRoot, time.clock);
    const b = roots.open(stateRoot, time.clock);

    expect(a.leases.tryAcquire("schedules", "proc-a", 10_000)).toBe(true);
    expect(b.leases.tryAcquire("schedules", "proc-b", 10_000)).toBe(false);
    expect(b.leases.tryAcquire("reminders", "proc-b", 10_000)).toBe(true);

    time.advance(9_000);
    expect(a.leases.tryAcquire("schedules", "proc-a", 10_000)).toBe(true); // renewal
    time.advance(9_000);
    expect(b.leases.tryAcquire("schedules", "proc-b", 10_000)).toBe(false);
    time.advance(1_000);
    expect(b.leases.tryAcquire("schedules", "proc-b", 10_000)).toBe(true); // a's lease expired
    expect(a.leases.tryAcquire("schedules", "proc-a", 10_000)).toBe(false);

    expect(a.leases.release("schedules", "proc-a")).toBe(false);
    expect(b.leases.release("schedules", "proc-b")).toBe(true);
    expect(a.leases.tryAcquire("schedules", "proc-a", 10_000)).toBe(true);
  });
});
