import { afterEach, describe, expect, it } from "vitest";
import { alice, manualClock, tempRoots } from "./testing/temp-root.ts";

const roots = tempRoots();
afterEach(() => roots.cleanup());

describe("store.turns", () => {
  it("creates, updates and lists turns by status in admission order", () => {
    const time = manualClock();
    const store = roots.open(roots.root(), time.clock);
    const s1 = store.sessions.create({ mode: "chat", channel: "http", principal: alice }).id;
    const s2 = store.sessions.create({ mode: "chat", channel: "http", principal: alice }).id;
    const t1 = store.turns.create({ sessionId: s1, message: "one", botVersion: "v1" });
    time.advance(1);
    const t2 = store.turns.create({ sessionId: s2, message: "two" });
    time.advance(1);
    const t3 = store.turns.create({ sessionId: s1, message: "three" });
    expect(t1).toMatchObject({ id: expect.stringMatching(/^turn_/), status: "queued", botVersion: "v1", usage: null });

    const usage = { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0 };
    store.turns.update(t1.id, { status: "running", model: "scripted", startedAt: "2025-01-01T00:00:01.000Z" });
    expect(store.turns.update(t2.id, { status: "completed", endedAt: "2025-01-01T00:00:02.000Z", usage })).toMatchObject({
      status: "completed",
      usage,
    });
    expect(store.turns.get(t1.id)).toMatchObject({ status: "running", model: "scripted" });
    expect(store.turns.listByStatus(["queued", "running"]).map((t) => t.id)).toEqual([t1.id, t3.id]);
    expect(store.turns.listByStatus("queued", { sessionId: s2 })).toEqual([]);
    expect(store.turns.get("turn_missing")).toBeUndefined();
  });
});
