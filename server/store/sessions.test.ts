import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { traceFile } from "./trace.ts";
import { alice, bob, manualClock, tempRoots } from "./testing/temp-root.ts";

// The dialect-independent behaviours of sessions run on both stores in test/store-dialects.test.ts; here, what only SQLite has: trace files.

const roots = tempRoots();
afterEach(() => roots.cleanup());

function seeded() {
  const time = manualClock();
  const store = roots.open(roots.root(), time.clock);
  const titles = ["Fix the checkout", "Deploy staging", "Checkout flakes", "Weekly report", "checkout again"];
  const ids = titles.map((title, i) => {
    time.advance(1000);
    return store.sessions.create({ title, mode: "chat", channel: "http", principal: i % 2 ? bob : alice }).id;
  });
  return { store, ids, time };
}

describe("store.sessions on SQLite", () => {
  it("delete removes the session, its events, turns, approvals and trace file", () => {
    const { store, ids } = seeded();
    const [id, other] = ids;
    for (const sessionId of [id, other]) {
      store.events.append(sessionId, [{ type: "step.started", data: { step: 1 } }]);
      const turn = store.turns.create({ sessionId, message: "hi" });
      store.approvals.create({ sessionId, turnId: turn.id, toolCallId: "call_1", name: "deploy", input: {} });
    }
    const file = traceFile(store.stateRoot, id);
    expect(existsSync(file)).toBe(true);
    expect(store.sessions.delete(id)).toBe(true);
    expect(store.sessions.get(id, { includeDeleted: true })).toBeUndefined();
    expect(store.events.list(id)).toEqual([]);
    expect(store.events.lastIndex(id)).toBe(-1);
    expect(store.turns.listByStatus("queued", { sessionId: id })).toEqual([]);
    expect(store.approvals.listPending({ sessionId: id })).toEqual([]);
    expect(existsSync(file)).toBe(false);
    expect(store.sessions.delete(id)).toBe(false);
    // the other session is untouched
    expect(store.events.list(other)).toHaveLength(1);
    expect(store.turns.listByStatus("queued", { sessionId: other })).toHaveLength(1);
    expect(store.approvals.listPending({ sessionId: other })).toHaveLength(1);
    expect(existsSync(traceFile(store.stateRoot, other))).toBe(true);
  });
});
