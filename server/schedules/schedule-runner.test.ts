import { afterEach, describe, expect, it } from "vitest";
import type { ScheduleDefinition } from "../authoring/schedules.ts";
import { tempRoots } from "../store/testing/temp-root.ts";
import { ManualClock } from "./clock.ts";
import type { ScheduleRunner } from "./schedule-runner.ts";
import { opsRunner } from "./testing/ops-runner.ts";

const roots = tempRoots();
const runners: ScheduleRunner[] = [];
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop();
  roots.cleanup();
});

const everyFive: ScheduleDefinition = { cron: "*/5 * * * *", markdown: "Sweep." };

/** A runner over its own connection to `stateRoot`, recording `runner name@clock time` per firing. */
function runner(stateRoot: string, clock: ManualClock, holder: string, fired: string[], schedules = new Map([["sweep", everyFive]])) {
  const store = roots.open(stateRoot, () => clock.now());
  const instance = opsRunner(store, clock, holder, schedules, (name) => fired.push(`${holder}:${name}@${clock.now().toISOString().slice(11, 16)}`));
  runners.push(instance);
  return instance;
}

describe("ScheduleRunner", () => {
  it("fires */5 at the right UTC minutes, once per tick across two runners sharing a state root", async () => {
    const stateRoot = roots.root();
    const clock = new ManualClock("2026-03-02T08:58:30Z");
    const fired: string[] = [];
    await runner(stateRoot, clock, "a", fired).start();
    await runner(stateRoot, clock, "b", fired).start();

    await clock.advanceTo("2026-03-02T09:16:00Z");
    expect(fired.map((entry) => entry.split(":").slice(1).join(":"))).toEqual([
      "sweep@09:00",
      "sweep@09:05",
      "sweep@09:10",
      "sweep@09:15",
    ]);
    // One holder fired every tick: the lease stays with it while it keeps firing.
    expect(new Set(fired.map((entry) => entry.split(":")[0])).size).toBe(1);
  });

  it("hands over when the firing process stops, still never firing a tick twice", async () => {
    const stateRoot = roots.root();
    const clock = new ManualClock("2026-03-02T08:59:00Z");
    const fired: string[] = [];
    const a = runner(stateRoot, clock, "a", fired);
    await a.start();
    await runner(stateRoot, clock, "b", fired).start();
    await clock.advanceTo("2026-03-02T09:01:00Z");
    await a.stop();
    await clock.advanceTo("2026-03-02T09:06:00Z");
    expect(fired).toEqual(["a:sweep@09:00", "b:sweep@09:05"]);
  });

  it("catches up one missed firing after downtime, not one per missed tick", async () => {
    const stateRoot = roots.root();
    const clock = new ManualClock("2026-03-02T08:59:00Z");
    const fired: string[] = [];
    const first = runner(stateRoot, clock, "a", fired);
    await first.start();
    await clock.advanceTo("2026-03-02T09:01:00Z");
    await first.stop();

    // Down from 09:01 to 09:32: six ticks missed.
    await clock.advanceTo("2026-03-02T09:32:00Z");
    await runner(stateRoot, clock, "b", fired).start();
    await clock.advanceTo("2026-03-02T09:36:00Z");
    expect(fired).toEqual(["a:sweep@09:00", "b:sweep@09:32", "b:sweep@09:35"]);
  });

  it("claims each tick in the store, and forgets the claims a day after they were made", async () => {
    const stateRoot = roots.root();
    const clock = new ManualClock("2026-03-02T08:59:00Z");
    const fired: string[] = [];
    await runner(stateRoot, clock, "a", fired).start();
    const other = roots.open(stateRoot, () => clock.now());
    await clock.advanceTo("2026-03-02T09:01:00Z");
    expect(other.scheduleTicks.claim("ops/sweep", "2026-03-02T09:00:00.000Z", "b")).toBe(false);

    await clock.advanceTo("2026-03-03T09:06:00Z");
    expect(fired).toHaveLength(1 + 24 * 12 + 1);
    // The last firing (09:05 the next day) pruned the claims made before 09:05 a day earlier.
    expect(other.scheduleTicks.claim("ops/sweep", "2026-03-02T09:00:00.000Z", "b")).toBe(true);
    expect(other.scheduleTicks.claim("ops/sweep", "2026-03-02T09:05:00.000Z", "b")).toBe(false);
    expect(other.scheduleTicks.claim("ops/sweep", "2026-03-03T09:05:00.000Z", "b")).toBe(false);
  });

  it("a fresh state store has nothing to catch up", async () => {
    const clock = new ManualClock("2026-03-02T09:02:00Z");
    const fired: string[] = [];
    await runner(roots.root(), clock, "a", fired).start();
    await clock.advance(60_000);
    expect(fired).toEqual([]);
  });
});
