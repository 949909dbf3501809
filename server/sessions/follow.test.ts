import { describe, expect, it } from "vitest";
import type { AnyBdkEvent } from "../protocol/events.ts";
import { EventBus } from "./event-bus.ts";
import { followSession, type ReplayBatch } from "./follow.ts";

const unheard = { warn: () => {} };

const event = (index: number): AnyBdkEvent =>
  ({ type: "session.waiting", index, sessionId: "s1", at: "2026-01-01T00:00:00.000Z", data: {} }) as AnyBdkEvent;

/** A replay read from the store in batches, each batch handed over only when the test releases it. */
function gatedReplay(batches: number[][]) {
  const gates: Array<() => void> = [];
  async function* replay(): AsyncGenerator<ReplayBatch<readonly AnyBdkEvent[]>> {
    for (const indexes of batches) {
      await new Promise<void>((resolve) => gates.push(resolve));
      yield { batch: indexes.map(event), lastIndex: indexes[indexes.length - 1] };
    }
  }
  const release = async () => {
    while (gates.length === 0) await Promise.resolve();
    gates.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { replay: replay(), release };
}

describe("followSession", () => {
  it("delivers events published while the replay is read after it, each index once and in order", async () => {
    const bus = new EventBus();
    const { replay, release } = gatedReplay([[0, 1], [2, 3]]);
    const seen: number[] = [];
    const stop = followSession({ bus, sessionId: "s1", fromIndex: 0, read: () => replay, fromLive: (events) => events, deliver: (batch) => void seen.push(...batch.map((e) => e.index)), logger: unheard, failed: () => {} });
    // Index 3 is both in the replay's last batch and published live; 4 and 5 only live.
    bus.publish("s1", [event(3), event(4)]);
    await release();
    bus.publish("s1", [event(5)]);
    expect(seen).toEqual([0, 1]);
    await release();
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
    bus.publish("s1", [event(6)]);
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);
    stop();
  });

  it("stops mid-replay: nothing more is delivered, live or stored", async () => {
    const bus = new EventBus();
    const { replay, release } = gatedReplay([[0], [1], [2]]);
    const seen: number[] = [];
    const stop = followSession({ bus, sessionId: "s1", fromIndex: 0, read: () => replay, fromLive: (events) => events, deliver: (batch) => void seen.push(...batch.map((e) => e.index)), logger: unheard, failed: () => {} });
    await release();
    stop();
    bus.publish("s1", [event(3)]);
    await release();
    expect(seen).toEqual([0]);
  });

  it("reports a replay that cannot be read, and follows no further", async () => {
    const bus = new EventBus();
    async function* broken(): AsyncGenerator<ReplayBatch<readonly AnyBdkEvent[]>> {
      yield { batch: [event(0)], lastIndex: 0 };
      throw new Error("disk gone");
    }
    const seen: number[] = [];
    const failure = new Promise<unknown>((resolve) =>
      followSession({ bus, sessionId: "s1", fromIndex: 0, read: () => broken(), fromLive: (events) => events, deliver: (batch) => void seen.push(...batch.map((e) => e.index)), logger: unheard, failed: resolve }),
    );
    expect(await failure).toEqual(new Error("disk gone"));
    bus.publish("s1", [event(1)]);
    expect(seen).toEqual([0]);
  });

  /** Follows s1 through `deliver`, recording the warnings logged and the replay failures reported. */
  function followRecorded(bus: EventBus, replay: AsyncIterable<ReplayBatch<readonly AnyBdkEvent[]>>, deliver: (batch: readonly AnyBdkEvent[]) => void | Promise<void>) {
    const warnings: Array<[string, unknown]> = [];
    const failures: unknown[] = [];
    const logger = { warn: (msg: string, data?: Record<string, unknown>) => void warnings.push([msg, data]) };
    followSession({ bus, sessionId: "s1", fromIndex: 0, read: () => replay, fromLive: (events) => events, deliver, failed: (error) => failures.push(error), logger });
    return { warnings, failures };
  }

  it("logs a follower whose delivery fails and stops following it, without failing the publisher or the replay", async () => {
    const bus = new EventBus();
    const { replay, release } = gatedReplay([[0]]);
    const seen: number[] = [];
    const { warnings, failures } = followRecorded(bus, replay, (batch) => {
      if (batch[0].index === 2) throw new Error("socket closed");
      seen.push(...batch.map((e) => e.index));
    });
    await release();
    bus.publish("s1", [event(1)]);
    expect(() => bus.publish("s1", [event(2)])).not.toThrow();
    bus.publish("s1", [event(3)]);
    expect(seen).toEqual([0, 1]);
    expect(failures).toEqual([]);
    expect(warnings).toEqual([["A follower of session s1 is no longer followed: delivery failed: socket closed", { sessionId: "s1" }]]);
  });

  it("logs a delivery that rejects during the replay as the follower's failure, not the replay's", async () => {
    const { replay, release } = gatedReplay([[0], [1]]);
    const { warnings, failures } = followRecorded(new EventBus(), replay, () => Promise.reject(new Error("write EPIPE")));
    await release();
    expect(failures).toEqual([]);
    expect(warnings).toEqual([["A follower of session s1 is no longer followed: delivery failed: write EPIPE", { sessionId: "s1" }]]);
  });

  it("reads what other nodes appended from the store on a wake-up, after the last delivered index, each index once", async () => {
    const bus = new EventBus();
    // The table: indexes 0..n-1 stored; other nodes append by raising `stored`.
    let stored = 2;
    const reads: number[] = [];
    async function* table(from: number): AsyncGenerator<ReplayBatch<readonly AnyBdkEvent[]>> {
      reads.push(from);
      await Promise.resolve();
      const indexes = Array.from({ length: Math.max(0, stored - from) }, (_, i) => from + i);
      if (indexes.length > 0) yield { batch: indexes.map(event), lastIndex: indexes[indexes.length - 1] };
    }
    let wake: (head: number) => void = () => {};
    let watching = false;
    const seen: number[] = [];
    const stop = followSession({
      bus,
      sessionId: "s1",
      fromIndex: 0,
      read: table,
      watch: (w) => {
        wake = w;
        watching = true;
        return () => (watching = false);
      },
      fromLive: (events) => events,
      deliver: (batch) => void seen.push(...batch.map((e) => e.index)),
      logger: unheard,
      failed: () => {},
    });
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    await settle();
    expect(seen).toEqual([0, 1]);
    // A wake-up for what was already delivered (this node's own append) reads nothing.
    wake(1);
    await settle();
    expect(reads).toEqual([0]);
    // Another node appended 2..4; a local append (5) is published while the catch-up is read.
    stored = 5;
    wake(4);
    stored = 6;
    bus.publish("s1", [event(5)]);
    await settle();
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
    // Two wake-ups while one read runs: one more read after it, from where it stopped.
    stored = 8;
    wake(7);
    wake(7);
    await settle();
    await settle();
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(reads).toEqual([0, 2, 6]);
    stop();
    expect(watching).toBe(false);
  });
});
