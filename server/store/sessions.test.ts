import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { traceFile } from "./trace.ts";
import { alice, bob, manualClock, tempRoots } from "./testing/temp-root.ts";

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

describe("store.sessions", () => {
  it("creates with defaults and reads back plain rows", () => {
    const store = roots.open(roots.root(), manualClock("2025-05-05T05:05:05.000Z").clock);
    const row = store.sessions.create({
      mode: "task",
      channel: "drive",
      principal: { type: "service", id: "bearer-1234abcd" },
      continuationToken: "pr:acme/checkout#42",
      channelState: { thread: 7 },
      purpose: "eval",
      dryRun: true,
    });
    expect(row.id).toMatch(/^ses_[0-9A-Z]{26}$/);
    expect(row).toMatchObject({
      agent: null,
      title: null,
      mode: "task",
      status: "idle",
      principal: { type: "service", id: "bearer-1234abcd" },
      channelState: { thread: 7 },
      dryRun: true,
      lastIndex: -1,
      usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
      createdAt: "2025-05-05T05:05:05.000Z",
    });
    expect(store.sessions.get(row.id)).toEqual(row);
    const usage = { inputTokens: 3, outputTokens: 4, cachedInputTokens: 1 };
    expect(store.sessions.update(row.id, { status: "running", usage })).toMatchObject({ status: "running", usage });
    expect(store.sessions.update("ses_missing", { status: "running" })).toBeUndefined();
  });

  it("lists newest first with principal filter and search by title or id", () => {
    const { store, ids } = seeded();
    expect(store.sessions.list().sessions.map((s) => s.id)).toEqual([...ids].reverse());
    expect(store.sessions.list({ principal: alice }).sessions.map((s) => s.id)).toEqual([ids[4], ids[2], ids[0]]);
    expect(store.sessions.list({ q: "CHECKOUT" }).sessions.map((s) => s.title)).toEqual([
      "checkout again",
      "Checkout flakes",
      "Fix the checkout",
    ]);
    expect(store.sessions.list({ q: "checkout", principal: bob }).sessions).toEqual([]);
    expect(store.sessions.list({ q: ids[1].slice(-10) }).sessions.map((s) => s.id)).toEqual([ids[1]]);
    expect(store.sessions.list({ q: "%" }).sessions).toEqual([]);
  });

  it("pages with a cursor", () => {
    const { store, ids } = seeded();
    const first = store.sessions.list({ limit: 2 });
    const second = store.sessions.list({ limit: 2, cursor: first.nextCursor });
    const third = store.sessions.list({ limit: 2, cursor: second.nextCursor });
    expect([first, second, third].map((page) => page.sessions.map((s) => s.id))).toEqual([
      [ids[4], ids[3]],
      [ids[2], ids[1]],
      [ids[0]],
    ]);
    expect(third.nextCursor).toBeNull();
    expect(() => store.sessions.list({ cursor: "garbage" })).toThrow(expect.objectContaining({ code: "invalid_request" }));
  });

  it("finds a session by channel token, rotates it atomically and refuses a duplicate", () => {
    const { store, ids } = seeded();
    store.sessions.update(ids[0], { continuationToken: "http:one" });
    expect(store.sessions.findByToken("http", "http:one")?.id).toBe(ids[0]);
    expect(store.sessions.findByToken("slack", "http:one")).toBeUndefined();
    expect(store.sessions.rotateToken(ids[0], "http:one", "http:two")).toBe(true);
    expect(store.sessions.rotateToken(ids[0], "http:one", "http:three")).toBe(false);
    expect(store.sessions.findByToken("http", "http:two")?.id).toBe(ids[0]);
    expect(() =>
      store.sessions.create({ mode: "chat", channel: "http", principal: alice, continuationToken: "http:two" }),
    ).toThrow(expect.objectContaining({ code: "invalid_request" }));
    expect(store.sessions.create({ mode: "chat", channel: "slack", principal: alice, continuationToken: "http:two" }).channel).toBe(
      "slack",
    );
  });

  it("lists by status", () => {
    const { store, ids } = seeded();
    store.sessions.update(ids[1], { status: "running" });
    store.sessions.update(ids[3], { status: "waiting" });
    expect(store.sessions.listByStatus("running").map((s) => s.id)).toEqual([ids[1]]);
    expect(store.sessions.listByStatus(["running", "waiting"]).map((s) => s.id)).toEqual([ids[1], ids[3]]);
  });

  it("soft delete hides the session and frees its token", () => {
    const { store, ids } = seeded();
    store.sessions.update(ids[0], { continuationToken: "pr:acme/checkout#42" });
    expect(store.sessions.softDelete(ids[0])).toBe(true);
    expect(store.sessions.softDelete(ids[0])).toBe(false);
    expect(store.sessions.get(ids[0])).toBeUndefined();
    expect(store.sessions.get(ids[0], { includeDeleted: true })?.status).toBe("deleted");
    expect(store.sessions.list().sessions.map((s) => s.id)).not.toContain(ids[0]);
    expect(store.sessions.findByToken("http", "pr:acme/checkout#42")).toBeUndefined();
    const again = store.sessions.create({ mode: "chat", channel: "http", principal: alice, continuationToken: "pr:acme/checkout#42" });
    expect(store.sessions.findByToken("http", "pr:acme/checkout#42")?.id).toBe(again.id);
  });

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

  it("rejects ids that cannot be file names", () => {
    const store = roots.open(roots.root());
    expect(() => store.sessions.create({ id: "../x", mode: "chat", channel: "http", principal: alice })).toThrow(
      expect.objectContaining({ code: "invalid_request" }),
    );
  });
});
