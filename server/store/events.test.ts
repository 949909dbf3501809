import { afterEach, describe, expect, it } from "vitest";
import type { EventDraft } from "../protocol/events.ts";
import type { Store } from "./store.ts";
import { alice, manualClock, tempRoots } from "./testing/temp-root.ts";

const roots = tempRoots();
afterEach(() => roots.cleanup());

const step = (n: number): EventDraft => ({ type: "step.started", turnId: "turn_1", data: { step: n } });

function withSession(store: Store, id = "ses_a"): string {
  store.sessions.create({ id, mode: "chat", channel: "http", principal: alice });
  return id;
}

describe("store.events", () => {
  it("assigns gap-free indexes from 0, stamps `at` from the clock and tracks lastIndex", () => {
    const time = manualClock("2025-03-01T10:00:00.000Z");
    const store = roots.open(roots.root(), time.clock);
    const id = withSession(store);
    expect(store.events.lastIndex(id)).toBe(-1);
    const first = store.events.append(id, [
      { type: "session.started", data: { mode: "chat", channel: "http", principal: alice } },
      step(1),
    ]);
    time.advance(1000);
    const [third] = store.events.append(id, [{ type: "session.waiting", data: {} }]);
    expect(first.map((e) => e.index)).toEqual([0, 1]);
    expect(first[0]).toEqual({
      type: "session.started",
      index: 0,
      sessionId: id,
      at: "2025-03-01T10:00:00.000Z",
      data: { mode: "chat", channel: "http", principal: alice },
    });
    expect(first[1].turnId).toBe("turn_1");
    expect(third).toMatchObject({ index: 2, at: "2025-03-01T10:00:01.000Z" });
    expect(store.events.lastIndex(id)).toBe(2);
    expect(store.sessions.get(id)?.lastIndex).toBe(2);
    expect(store.events.list(id)).toEqual([...first, third]);
  });

  it("refuses events for an unknown session", () => {
    const store = roots.open(roots.root());
    expect(() => store.events.append("ses_nope", [step(0)])).toThrow(expect.objectContaining({ code: "not_found" }));
  });

  it("continues without gaps after close and reopen", () => {
    const stateRoot = roots.root();
    const before = roots.open(stateRoot);
    const id = withSession(before);
    before.events.append(id, [step(0), step(1), step(2)]);
    before.close();
    const after = roots.open(stateRoot);
    expect(after.events.append(id, [step(3)])[0].index).toBe(3);
    expect(after.events.list(id).map((e) => e.index)).toEqual([0, 1, 2, 3]);
  });

  it("keeps indexes gap-free when two stores on one file append alternately", () => {
    const stateRoot = roots.root();
    const a = roots.open(stateRoot);
    const b = roots.open(stateRoot);
    const id = withSession(a);
    const indexes: number[] = [];
    for (let i = 0; i < 20; i++) {
      const writer = i % 2 === 0 ? a : b;
      indexes.push(...writer.events.append(id, [step(i), step(i)]).map((e) => e.index));
    }
    expect(indexes).toEqual([...Array(40).keys()]);
    expect(b.events.list(id).map((e) => e.index)).toEqual(indexes);
    expect(a.events.lastIndex(id)).toBe(39);
  });

  it("lists and iterates from a middle index, and counts back from the end", () => {
    const store = roots.open(roots.root());
    const id = withSession(store);
    store.events.append(id, Array.from({ length: 25 }, (_, i) => step(i)));
    expect(store.events.list(id, { fromIndex: 10, limit: 3 }).map((e) => e.index)).toEqual([10, 11, 12]);
    expect(store.events.list(id, { fromIndex: -2 }).map((e) => e.index)).toEqual([23, 24]);
    expect(store.events.list(id, { fromIndex: -100 })).toHaveLength(25);
    expect(store.events.list(id, { fromIndex: 99 })).toEqual([]);

    const batches = [...store.events.iterate(id, 7, 5)].map((batch) => batch.map((e) => e.index));
    expect(batches.map((b) => b.length)).toEqual([5, 5, 5, 3]);
    expect(batches.flat()).toEqual(Array.from({ length: 18 }, (_, i) => i + 7));
    expect([...store.events.iterate(id, 25)]).toEqual([]);
  });

  it("iterate picks up events appended while it runs", () => {
    const store = roots.open(roots.root());
    const id = withSession(store);
    store.events.append(id, [step(0), step(1)]);
    const seen: number[] = [];
    for (const batch of store.events.iterate(id, 0, 2)) {
      seen.push(...batch.map((e) => e.index));
      if (seen.length === 2) store.events.append(id, [step(2)]);
    }
    expect(seen).toEqual([0, 1, 2]);
  });
});

describe("store.events.iterateNdjson", () => {
  it("yields exactly the JSON lines of the stored events, in batches, from any index", () => {
    const store = roots.open(roots.root());
    const id = withSession(store);
    store.events.append(id, [
      { type: "session.started", data: { mode: "chat", channel: "http", principal: alice } },
      ...Array.from({ length: 9 }, (_, n) => step(n)),
      { type: "message.appended", data: { delta: 'quote " and \n newline' } },
    ]);
    const expected = store.events.list(id).map((event) => `${JSON.stringify(event)}\n`);
    const batches = [...store.events.iterateNdjson(id, 0, 4)];
    expect(batches.map((batch) => batch.lastIndex)).toEqual([3, 7, 10]);
    expect(batches.map((batch) => batch.text).join("")).toBe(expected.join(""));
    expect([...store.events.iterateNdjson(id, 8)].map((batch) => batch.text).join("")).toBe(expected.slice(8).join(""));
    expect([...store.events.iterateNdjson(id, -2)].map((batch) => batch.text).join("")).toBe(expected.slice(-2).join(""));
  });
});
