/**
 * The store contract on both dialects: the behaviours of the SQLite store
 * tests (server/store/*.test.ts) run against `asyncStore(openStore(dir))`
 * and `openPgStore(url)` on a real PostgreSQL (a fresh database per test).
 * Two stores opened on one place are two processes on one file (SQLite) or
 * two nodes on one database (Postgres).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { EventDraft } from "../server/protocol/events.ts";
import { type AsyncStore, asyncStore } from "../server/store/async-store.ts";
import { openPgStore } from "../server/store/pg/store.ts";
import { openStore } from "../server/store/store.ts";
import { heldOpen } from "../server/store/testing/held-open.ts";
import { alice, bob, manualClock } from "../server/store/testing/temp-root.ts";
import type { LogLevel } from "../server/store/types.ts";
import { type TestDatabase, testDatabase } from "./support/postgres.ts";

let database: TestDatabase;
const opened: AsyncStore[] = [];
const roots: string[] = [];

beforeAll(async () => {
  database = await testDatabase();
}, 300_000);

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

afterAll(async () => {
  for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
  await database?.drop();
}, 120_000);

/** An empty store location; each `open` is another process (SQLite) or node (Postgres) on it. */
interface Place {
  open(clock?: () => Date, logRetention?: Readonly<Record<LogLevel, number>>): Promise<AsyncStore>;
}

const dialects: { name: string; place(): Promise<Place> }[] = [
  {
    name: "sqlite",
    async place() {
      const dir = mkdtempSync(path.join(tmpdir(), "bdk-dialects-"));
      roots.push(dir);
      return { open: async (clock, logRetention) => track(asyncStore(openStore(dir, { clock, logRetention }))) };
    },
  },
  {
    name: "postgres",
    async place() {
      const url = await database.fresh();
      return { open: async (clock, logRetention) => track(await openPgStore(url, { clock, logRetention, maxConnections: 4 })) };
    },
  },
];

function track(store: AsyncStore): AsyncStore {
  opened.push(store);
  return store;
}

const step = (n: number): EventDraft => ({ type: "step.started", turnId: "turn_1", data: { step: n } });

describe.each(dialects)("store on $name", (dialect) => {
  async function fresh(clock?: () => Date) {
    const place = await dialect.place();
    return { place, store: await place.open(clock) };
  }

  async function withSession(store: AsyncStore, id = "ses_a"): Promise<string> {
    await store.sessions.create({ id, mode: "chat", channel: "http", principal: alice });
    return id;
  }

  async function seeded() {
    const time = manualClock();
    const { store } = await fresh(time.clock);
    const titles = ["Fix the checkout", "Deploy staging", "Checkout flakes", "Weekly report", "checkout again"];
    const ids: string[] = [];
    for (const [i, title] of titles.entries()) {
      time.advance(1000);
      ids.push((await store.sessions.create({ title, mode: "chat", channel: "http", principal: i % 2 ? bob : alice })).id);
    }
    return { store, ids, time };
  }

  describe("sessions", () => {
    it("creates with defaults and reads back plain rows", async () => {
      const { store } = await fresh(manualClock("2025-05-05T05:05:05.000Z").clock);
      const row = await store.sessions.create({
        mode: "task",
        channel: "drive",
        principal: { type: "service", id: "bearer-1234abcd" },
        continuationToken: "pr:acme/checkout#42",
        channelState: { thread: 7 },
        purpose: "eval",
        dryRun: true,
        fork: { parentId: "ses_parent", forkedAt: 3, overrides: { model: "scripted" } },
      });
      expect(row.id).toMatch(/^ses_[0-9A-Z]{26}$/);
      expect(row).toMatchObject({
        agent: null,
        mode: "task",
        status: "idle",
        principal: { type: "service", id: "bearer-1234abcd" },
        channelState: { thread: 7 },
        dryRun: true,
        lastIndex: -1,
        usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
        createdAt: "2025-05-05T05:05:05.000Z",
        fork: { parentId: "ses_parent", forkedAt: 3, overrides: { model: "scripted" } },
      });
      expect(await store.sessions.get(row.id)).toEqual(row);
      const usage = { inputTokens: 3, outputTokens: 4, cachedInputTokens: 1 };
      expect(await store.sessions.update(row.id, { status: "running", usage })).toMatchObject({ status: "running", usage });
      expect(await store.sessions.update("ses_missing", { status: "running" })).toBeUndefined();
    });

    it("lists newest first with principal filter and search by title or id, case-insensitive, wildcards literal", async () => {
      const { store, ids } = await seeded();
      const list = async (query: Parameters<AsyncStore["sessions"]["list"]>[0]) => (await store.sessions.list(query)).sessions;
      expect((await list({})).map((s) => s.id)).toEqual([...ids].reverse());
      expect((await list({ principal: alice })).map((s) => s.id)).toEqual([ids[4], ids[2], ids[0]]);
      expect((await list({ q: "CHECKOUT" })).map((s) => s.title)).toEqual(["checkout again", "Checkout flakes", "Fix the checkout"]);
      expect(await list({ q: "checkout", principal: bob })).toEqual([]);
      expect((await list({ q: ids[1].slice(-10) })).map((s) => s.id)).toEqual([ids[1]]);
      expect(await list({ q: "%" })).toEqual([]);
    });

    it("pages with a cursor and refuses a garbled one", async () => {
      const { store, ids } = await seeded();
      const first = await store.sessions.list({ limit: 2 });
      const second = await store.sessions.list({ limit: 2, cursor: first.nextCursor });
      const third = await store.sessions.list({ limit: 2, cursor: second.nextCursor });
      expect([first, second, third].map((page) => page.sessions.map((s) => s.id))).toEqual([[ids[4], ids[3]], [ids[2], ids[1]], [ids[0]]]);
      expect(third.nextCursor).toBeNull();
      await expect(store.sessions.list({ cursor: "garbage" })).rejects.toMatchObject({ code: "invalid_request" });
    });

    it("finds a session by channel token, rotates it atomically and refuses a duplicate", async () => {
      const { store, ids } = await seeded();
      await store.sessions.update(ids[0], { continuationToken: "http:one" });
      expect((await store.sessions.findByToken("http", "http:one"))?.id).toBe(ids[0]);
      expect(await store.sessions.findByToken("slack", "http:one")).toBeUndefined();
      expect(await store.sessions.rotateToken(ids[0], "http:one", "http:two")).toBe(true);
      expect(await store.sessions.rotateToken(ids[0], "http:one", "http:three")).toBe(false);
      await expect(
        store.sessions.create({ mode: "chat", channel: "http", principal: alice, continuationToken: "http:two" }),
      ).rejects.toMatchObject({ code: "invalid_request", message: "Channel http already has a session for this token." });
      const slack = await store.sessions.create({ mode: "chat", channel: "slack", principal: alice, continuationToken: "http:two" });
      expect(slack.channel).toBe("slack");
    });

    it("lists by status; soft delete hides the session and frees its token", async () => {
      const { store, ids } = await seeded();
      await store.sessions.update(ids[1], { status: "running" });
      await store.sessions.update(ids[3], { status: "waiting" });
      expect((await store.sessions.listByStatus(["running", "waiting"])).map((s) => s.id)).toEqual([ids[1], ids[3]]);
      await store.sessions.update(ids[0], { continuationToken: "pr:acme/checkout#42" });
      expect(await store.sessions.softDelete(ids[0])).toBe(true);
      expect(await store.sessions.softDelete(ids[0])).toBe(false);
      expect(await store.sessions.get(ids[0])).toBeUndefined();
      expect((await store.sessions.get(ids[0], { includeDeleted: true }))?.status).toBe("deleted");
      expect(await store.sessions.findByToken("http", "pr:acme/checkout#42")).toBeUndefined();
      const again = await store.sessions.create({ mode: "chat", channel: "http", principal: alice, continuationToken: "pr:acme/checkout#42" });
      expect((await store.sessions.findByToken("http", "pr:acme/checkout#42"))?.id).toBe(again.id);
    });

    it("delete removes the session with its events, turns and approvals, and leaves the others", async () => {
      const { store, ids } = await seeded();
      const [id, other] = ids;
      for (const sessionId of [id, other]) {
        await store.events.append(sessionId, [step(1)]);
        const turn = await store.turns.create({ sessionId, message: "hi" });
        await store.approvals.create({ sessionId, turnId: turn.id, toolCallId: "call_1", name: "deploy", input: {} });
      }
      expect(await store.sessions.delete(id)).toBe(true);
      expect(await store.sessions.get(id, { includeDeleted: true })).toBeUndefined();
      expect(await store.events.list(id)).toEqual([]);
      expect(await store.events.lastIndex(id)).toBe(-1);
      expect(await store.turns.listByStatus("queued", { sessionId: id })).toEqual([]);
      expect(await store.approvals.listPending({ sessionId: id })).toEqual([]);
      expect(await store.sessions.delete(id)).toBe(false);
      expect(await store.events.list(other)).toHaveLength(1);
      expect(await store.approvals.listPending({ sessionId: other })).toHaveLength(1);
    });

    it("rejects ids that cannot be file names", async () => {
      const { store } = await fresh();
      await expect(store.sessions.create({ id: "../x", mode: "chat", channel: "http", principal: alice })).rejects.toMatchObject({
        code: "invalid_request",
      });
    });
  });

  describe("events", () => {
    it("assigns gap-free indexes from 0, stamps `at` from the clock and tracks lastIndex", async () => {
      const time = manualClock("2025-03-01T10:00:00.000Z");
      const { store } = await fresh(time.clock);
      const id = await withSession(store);
      expect(await store.events.lastIndex(id)).toBe(-1);
      const first = await store.events.append(id, [{ type: "session.started", data: { mode: "chat", channel: "http", principal: alice } }, step(1)]);
      time.advance(1000);
      const [third] = await store.events.append(id, [{ type: "session.waiting", data: {} }]);
      expect(first[0]).toEqual({
        type: "session.started",
        index: 0,
        sessionId: id,
        at: "2025-03-01T10:00:00.000Z",
        data: { mode: "chat", channel: "http", principal: alice },
      });
      expect(first[1]).toMatchObject({ index: 1, turnId: "turn_1" });
      expect(third).toMatchObject({ index: 2, at: "2025-03-01T10:00:01.000Z" });
      expect(await store.events.lastIndex(id)).toBe(2);
      expect((await store.sessions.get(id))?.lastIndex).toBe(2);
      expect(await store.events.list(id)).toEqual([...first, third]);
    });

    it("refuses events for an unknown session", async () => {
      const { store } = await fresh();
      await expect(store.events.append("ses_nope", [step(0)])).rejects.toMatchObject({ code: "not_found" });
    });

    it("keeps indexes gap-free when two stores on one place append at once, and after a reopen", async () => {
      const { place, store: a } = await fresh();
      const b = await place.open();
      const id = await withSession(a);
      const batches = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).events.append(id, [step(i), step(i)])));
      expect(batches.flat().map((e) => e.index).sort((x, y) => x - y)).toEqual([...Array(40).keys()]);
      for (const batch of batches) expect(batch[1].index).toBe(batch[0].index + 1);
      await a.close();
      const reopened = await place.open();
      expect((await reopened.events.append(id, [step(40)]))[0].index).toBe(40);
      expect((await b.events.list(id)).map((e) => e.index)).toEqual([...Array(41).keys()]);
    });

    it("lists and iterates from a middle index, and counts back from the end", async () => {
      const { store } = await fresh();
      const id = await withSession(store);
      await store.events.append(id, Array.from({ length: 25 }, (_, i) => step(i)));
      expect((await store.events.list(id, { fromIndex: 10, limit: 3 })).map((e) => e.index)).toEqual([10, 11, 12]);
      expect((await store.events.list(id, { fromIndex: -2 })).map((e) => e.index)).toEqual([23, 24]);
      expect(await store.events.list(id, { fromIndex: -100 })).toHaveLength(25);
      expect(await store.events.list(id, { fromIndex: 99 })).toEqual([]);
      const batches: number[][] = [];
      for await (const batch of store.events.iterate(id, 7, 5)) batches.push(batch.map((e) => e.index));
      expect(batches.map((b) => b.length)).toEqual([5, 5, 5, 3]);
      expect(batches.flat()).toEqual(Array.from({ length: 18 }, (_, i) => i + 7));
    });

    it("iterate picks up events appended while it runs", async () => {
      const { store } = await fresh();
      const id = await withSession(store);
      await store.events.append(id, [step(0), step(1)]);
      const seen: number[] = [];
      for await (const batch of store.events.iterate(id, 0, 2)) {
        seen.push(...batch.map((e) => e.index));
        if (seen.length === 2) await store.events.append(id, [step(2)]);
      }
      expect(seen).toEqual([0, 1, 2]);
    });

    it("yields exactly the JSON lines of the stored events as NDJSON, key order kept", async () => {
      const { store } = await fresh();
      const id = await withSession(store);
      await store.events.append(id, [
        { type: "session.started", data: { mode: "chat", channel: "http", principal: alice } },
        ...Array.from({ length: 9 }, (_, n) => step(n)),
        { type: "message.appended", data: { delta: 'quote " and \n newline' } },
      ]);
      const stored = await store.events.list(id);
      // The payload reads back with the key order it was written in (principal: type before id).
      expect(JSON.stringify(stored[0].data)).toBe(JSON.stringify({ mode: "chat", channel: "http", principal: alice }));
      const expected = stored.map((event) => `${JSON.stringify(event)}\n`);
      const texts: string[] = [];
      const lasts: number[] = [];
      for await (const batch of store.events.iterateNdjson(id, 0, 4)) {
        texts.push(batch.text);
        lasts.push(batch.lastIndex);
      }
      expect(lasts).toEqual([3, 7, 10]);
      expect(texts.join("")).toBe(expected.join(""));
      let tail = "";
      for await (const batch of store.events.iterateNdjson(id, -2)) tail += batch.text;
      expect(tail).toBe(expected.slice(-2).join(""));
    });

    it("finds a turn's events by type", async () => {
      const { store } = await fresh();
      const id = await withSession(store);
      await store.events.append(id, [step(0), { type: "session.waiting", data: {} }, step(1)]);
      expect(await store.events.hasTurnEvent(id, "turn_1", "step.started")).toBe(true);
      expect(await store.events.hasTurnEvent(id, "turn_2", "step.started")).toBe(false);
      expect((await store.events.turnEvents(id, "turn_1", "step.started")).map((e) => e.index)).toEqual([0, 2]);
    });
  });

  it("turns: creates, updates and lists by status in admission order", async () => {
    const time = manualClock();
    const { store } = await fresh(time.clock);
    const s1 = await withSession(store, "ses_1");
    const s2 = await withSession(store, "ses_2");
    const t1 = await store.turns.create({ sessionId: s1, message: "one", botVersion: "v1", workspaceFiles: { "a.txt": "A" } });
    time.advance(1);
    const t2 = await store.turns.create({ sessionId: s2, message: "two" });
    time.advance(1);
    const t3 = await store.turns.create({ sessionId: s1, message: "three" });
    expect(t1).toMatchObject({ id: expect.stringMatching(/^turn_/), status: "queued", botVersion: "v1", usage: null, workspaceFiles: { "a.txt": "A" } });
    const usage = { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0 };
    await store.turns.update(t1.id, { status: "running", model: "scripted", startedAt: "2025-01-01T00:00:01.000Z" });
    expect(await store.turns.update(t2.id, { status: "completed", usage })).toMatchObject({ status: "completed", usage });
    expect(await store.turns.get(t1.id)).toMatchObject({ status: "running", model: "scripted" });
    expect((await store.turns.listByStatus(["queued", "running"])).map((t) => t.id)).toEqual([t1.id, t3.id]);
    expect(await store.turns.listByStatus("queued", { sessionId: s2 })).toEqual([]);
    expect(await store.turns.get("turn_missing")).toBeUndefined();
  });

  describe("approvals", () => {
    async function withApprovals() {
      const time = manualClock();
      const { place, store } = await fresh(time.clock);
      const mine = await store.sessions.create({ mode: "chat", channel: "http", principal: alice });
      const theirs = await store.sessions.create({ mode: "chat", channel: "http", principal: bob });
      const request = async (sessionId: string, name: string) => {
        time.advance(1000);
        return store.approvals.create({ sessionId, turnId: "turn_1", toolCallId: `call_${name}`, name, input: { env: name } });
      };
      return { place, store, time, mine, theirs, request };
    }

    it("resolves once; the second resolve returns false and changes nothing", async () => {
      const { store, time, mine, request } = await withApprovals();
      const approval = await request(mine.id, "deploy");
      expect(approval).toMatchObject({ status: "pending", input: { env: "deploy" }, resolvedAt: null });
      time.advance(5000);
      expect(await store.approvals.resolve(approval.id, { approved: true, by: "user:alice", reason: "ok" })).toBe(true);
      expect(await store.approvals.resolve(approval.id, { approved: false, by: "user:bob" })).toBe(false);
      expect(await store.approvals.get(approval.id)).toMatchObject({ status: "approved", resolvedBy: "user:alice", reason: "ok", resolvedAt: "2025-01-01T00:00:06.000Z" });
      expect(await store.approvals.findByToolCall("turn_1", "call_deploy")).toMatchObject({ id: approval.id });
      expect(await store.approvals.resolve("apr_missing", { approved: true, by: "x" })).toBe(false);
    });

    it("lists pending approvals oldest first, per principal, without deleted sessions", async () => {
      const { store, mine, theirs, request } = await withApprovals();
      const a = await request(mine.id, "a");
      const b = await request(theirs.id, "b");
      const c = await request(mine.id, "c");
      await store.approvals.resolve(c.id, { approved: false, by: "user:alice" });
      const d = await request(mine.id, "d");
      expect((await store.approvals.listPending()).map((x) => x.id)).toEqual([a.id, b.id, d.id]);
      expect((await store.approvals.listPending({ principal: alice })).map((x) => x.id)).toEqual([a.id, d.id]);
      expect(await store.approvals.listPending({ principal: { type: "service", id: alice.id } })).toEqual([]);
      await store.sessions.softDelete(theirs.id);
      expect((await store.approvals.listPending()).map((x) => x.id)).toEqual([a.id, d.id]);
    });

    it("stay resolvable after a reopen", async () => {
      const { place, store, mine, request } = await withApprovals();
      const approval = await request(mine.id, "deploy");
      await store.close();
      const reopened = await place.open();
      expect((await reopened.approvals.listPending()).map((x) => x.id)).toEqual([approval.id]);
      expect(await reopened.approvals.resolve(approval.id, { approved: false, by: "user:alice" })).toBe(true);
      expect((await reopened.approvals.get(approval.id))?.status).toBe("denied");
    });

    it("is resolved by exactly one of two stores racing for it", async () => {
      const { place, store, mine, request } = await withApprovals();
      const other = await place.open();
      const approvals = await Promise.all(Array.from({ length: 10 }, (_, i) => request(mine.id, `race${i}`)));
      const wins = await Promise.all(
        approvals.flatMap((approval) => [store, other].map((s, n) => s.approvals.resolve(approval.id, { approved: n === 0, by: `node-${n}` }))),
      );
      for (let i = 0; i < approvals.length; i++) expect(wins[2 * i] !== wins[2 * i + 1]).toBe(true);
    });
  });

  it("kv.claim: of claims racing for one key in open transactions of two nodes, one stores it; a rolled-back claim frees the key", async () => {
    const { place, store } = await fresh();
    const other = await place.open();
    const claimIn = (on: AsyncStore, value: string, rollBack = false) =>
      on.transaction(async (tx) => {
        const won = await tx.kv.claim("a", "delivery:1", value);
        if (rollBack) throw new Error("the message could not be stored");
        return won;
      });
    await expect(claimIn(store, "rolled back", true)).rejects.toThrow("the message could not be stored");
    const outcomes = await Promise.all([claimIn(store, "first"), claimIn(other, "second")]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await store.kv.get("a", "delivery:1")).toBe(outcomes[0] ? "first" : "second");
    expect(await other.kv.claim("a", "delivery:1", "late")).toBe(false);
  });

  it("kv: stores JSON values per agent (JSON null too), lists by literal prefix in key order, across a reopen", async () => {
    const { place, store } = await fresh();
    await store.kv.put("triage", "count", 1);
    await store.kv.put("triage", "count", 2);
    await store.kv.put("triage", "nothing", null);
    await store.kv.put("triage", "deep", { list: [1, "two", { three: true }] });
    for (const key of ["memory:bob", "memory:alice", "memo", "prefs", "memory:%", "Memory:Z"]) await store.kv.put("a", key, key.length);
    await store.kv.put("b", "memory:carol", 1);
    await store.close();
    const reopened = await place.open();
    expect(await reopened.kv.get("triage", "count")).toBe(2);
    expect(await reopened.kv.get("triage", "nothing")).toBeNull();
    expect(await reopened.kv.get("triage", "deep")).toEqual({ list: [1, "two", { three: true }] });
    expect(await reopened.kv.get("triage", "missing")).toBeUndefined();
    expect((await reopened.kv.list("a", "memory:")).map((e) => e.key)).toEqual(["memory:%", "memory:alice", "memory:bob"]);
    expect((await reopened.kv.list("a")).map((e) => e.key)).toEqual(["Memory:Z", "memo", "memory:%", "memory:alice", "memory:bob", "prefs"]);
    expect(await reopened.kv.delete("a", "memo")).toBe(true);
    expect(await reopened.kv.delete("a", "memo")).toBe(false);
  });

  describe("reminders", () => {
    it("keeps armed reminders across a reopen, soonest first", async () => {
      const time = manualClock();
      const { place, store } = await fresh(time.clock);
      const spec = { purpose: "ci_recheck", channelId: "drive", continuationToken: "pr:acme/checkout#42", delay: "2h" };
      const later = await store.reminders.create({ spec, nextFireAt: "2025-01-01T02:00:00.000Z" });
      const sooner = await store.reminders.create({ spec: { ...spec, delay: "30m" }, nextFireAt: "2025-01-01T00:30:00.000Z" });
      const gone = await store.reminders.create({ spec, nextFireAt: "2025-01-01T01:00:00.000Z" });
      expect(later).toMatchObject({ id: expect.stringMatching(/^rem_/), status: "armed", spec, lastFiredAt: null });
      time.advance(60_000);
      expect(await store.reminders.update(gone.id, { status: "cancelled" })).toMatchObject({ status: "cancelled", updatedAt: "2025-01-01T00:01:00.000Z" });
      await store.close();
      const reopened = await place.open(time.clock);
      expect((await reopened.reminders.list({ status: "armed" })).map((r) => r.id)).toEqual([sooner.id, later.id]);
      expect(await reopened.reminders.list()).toHaveLength(3);
      expect(await reopened.reminders.delete(gone.id)).toBe(true);
      expect(await reopened.reminders.get(gone.id)).toBeUndefined();
    });

    it("claims a due tick once: a claim for a tick already moved on, or a reminder no longer armed, gets nothing", async () => {
      const { store } = await fresh();
      const row = await store.reminders.create({ spec: { every: "1h" }, nextFireAt: "2025-01-01T01:00:00.000Z" });
      const next = { nextFireAt: "2025-01-01T02:00:00.000Z", lastFiredAt: "2025-01-01T01:00:00.000Z" };
      expect(await store.reminders.claim(row.id, "2025-01-01T01:00:00.000Z", next)).toMatchObject(next);
      expect(await store.reminders.claim(row.id, "2025-01-01T01:00:00.000Z", next)).toBeUndefined();
      await store.reminders.update(row.id, { status: "cancelled" });
      expect(await store.reminders.claim(row.id, "2025-01-01T02:00:00.000Z", next)).toBeUndefined();
    });

    it("fires each reminder once when two stores (two pools, two connections) race to claim it", async () => {
      const { place, store: a } = await fresh();
      const b = await place.open();
      const dueAt = "2025-01-01T01:00:00.000Z";
      const rows = await Promise.all(Array.from({ length: 40 }, () => a.reminders.create({ spec: { at: dueAt }, nextFireAt: dueAt })));
      const fired = { status: "done" as const, nextFireAt: null, lastFiredAt: dueAt };
      const claims = await Promise.all(rows.flatMap((row) => [a, b].map(async (s, node) => ((await s.reminders.claim(row.id, dueAt, fired)) ? node : -1))));
      for (let i = 0; i < rows.length; i++) expect(claims.slice(2 * i, 2 * i + 2).filter((node) => node >= 0)).toHaveLength(1);
      expect(await b.reminders.list({ status: "armed" })).toEqual([]);
    });
  });

  describe("schedule ticks", () => {
    it("claims a tick once per schedule, for its first holder only; other ticks and schedules stay free", async () => {
      const { store } = await fresh();
      expect(await store.scheduleTicks.claim("ops/sweep", "2025-01-01T09:00:00.000Z", "node-a")).toBe(true);
      expect(await store.scheduleTicks.claim("ops/sweep", "2025-01-01T09:00:00.000Z", "node-b")).toBe(false);
      expect(await store.scheduleTicks.claim("ops/sweep", "2025-01-01T09:00:00.000Z", "node-a")).toBe(false);
      expect(await store.scheduleTicks.claim("ops/sweep", "2025-01-01T09:05:00.000Z", "node-b")).toBe(true);
      expect(await store.scheduleTicks.claim("ops/digest", "2025-01-01T09:00:00.000Z", "node-b")).toBe(true);
    });

    it("prunes by claim time: a tick claimed before the cut-off can be claimed again, a later one stays claimed", async () => {
      const time = manualClock();
      const { store } = await fresh(time.clock);
      await store.scheduleTicks.claim("ops/sweep", "2025-01-01T00:00:00.000Z", "node-a");
      time.advance(60_000);
      // An old tick claimed late (a catch-up) is kept as long as a recent claim.
      await store.scheduleTicks.claim("ops/sweep", "2024-12-01T00:00:00.000Z", "node-a");
      expect(await store.scheduleTicks.prune("2025-01-01T00:00:30.000Z")).toBe(1);
      expect(await store.scheduleTicks.claim("ops/sweep", "2024-12-01T00:00:00.000Z", "node-b")).toBe(false);
      expect(await store.scheduleTicks.claim("ops/sweep", "2025-01-01T00:00:00.000Z", "node-b")).toBe(true);
    });

    it("gives each tick to exactly one of two stores (two pools, two connections) racing for it", async () => {
      const { place, store: a } = await fresh();
      const b = await place.open();
      const ticks = Array.from({ length: 40 }, (_, i) => new Date(Date.UTC(2025, 0, 1, 0, 5 * i)).toISOString());
      const claims = await Promise.all(ticks.flatMap((tick) => [a, b].map(async (s, node) => ((await s.scheduleTicks.claim("ops/sweep", tick, `node-${node}`)) ? node : -1))));
      for (let i = 0; i < ticks.length; i++) expect(claims.slice(2 * i, 2 * i + 2).filter((node) => node >= 0)).toHaveLength(1);
    });
  });

  it("leases: held by one store at a time until it expires or is released", async () => {
    const time = manualClock();
    const { place, store: a } = await fresh(time.clock);
    const b = await place.open(time.clock);
    expect(await a.leases.tryAcquire("schedules", "proc-a", 10_000)).toBe(true);
    expect(await b.leases.tryAcquire("schedules", "proc-b", 10_000)).toBe(false);
    expect(await b.leases.tryAcquire("reminders", "proc-b", 10_000)).toBe(true);
    time.advance(9_000);
    expect(await a.leases.tryAcquire("schedules", "proc-a", 10_000)).toBe(true);
    time.advance(9_000);
    expect(await b.leases.tryAcquire("schedules", "proc-b", 10_000)).toBe(false);
    time.advance(1_000);
    expect(await b.leases.tryAcquire("schedules", "proc-b", 10_000)).toBe(true);
    expect(await a.leases.tryAcquire("schedules", "proc-a", 10_000)).toBe(false);
    expect(await a.leases.release("schedules", "proc-a")).toBe(false);
    expect(await b.leases.release("schedules", "proc-b")).toBe(true);
    expect(await a.leases.tryAcquire("schedules", "proc-a", 10_000)).toBe(true);
  });

  it("toolCalls: records a call once, settles it, and lists write calls in doubt per principal", async () => {
    const { store } = await fresh();
    const mine = await withSession(store, "ses_mine");
    const key = (toolCallId: string) => ({ sessionId: mine, turnId: "turn_1", toolCallId });
    expect(await store.toolCalls.start({ ...key("call_b"), name: "pay", effect: "write", input: { amount: 5 } })).toBe(true);
    expect(await store.toolCalls.start({ ...key("call_b"), name: "pay", effect: "write", input: { amount: 5 } })).toBe(false);
    await store.toolCalls.start({ ...key("call_a"), name: "read", effect: "read", input: null });
    await store.toolCalls.start({ ...key("call_c"), name: "deploy", effect: "write", input: {} });
    await store.toolCalls.finish(key("call_a"), { output: "ok", isError: false, durationMs: 3 });
    await store.toolCalls.markInDoubt(key("call_b"));
    await store.toolCalls.finish(key("call_b"), { output: "late", isError: false, durationMs: 9 });
    expect(await store.toolCalls.get(key("call_a"))).toMatchObject({ status: "finished", outcome: { output: "ok", isError: false, durationMs: 3 } });
    expect(await store.toolCalls.get(key("call_b"))).toMatchObject({ status: "in_doubt", outcome: null, input: { amount: 5 } });
    expect((await store.toolCalls.ofTurn(mine, "turn_1")).map((c) => c.toolCallId)).toEqual(["call_b", "call_a", "call_c"]);
    await store.toolCalls.finish(key("call_c"), { output: null, isError: false, durationMs: 1, stillRunning: true });
    expect((await store.toolCalls.listInDoubtWrites({ principal: alice })).map((c) => c.toolCallId)).toEqual(["call_b", "call_c"]);
    expect(await store.toolCalls.listInDoubtWrites({ principal: bob })).toEqual([]);
    // A person checked call_b: it leaves the inbox, and it can be checked once.
    expect(await store.toolCalls.resolveInDoubt(mine, "call_b")).toMatchObject({ toolCallId: "call_b", status: "resolved" });
    expect(await store.toolCalls.resolveInDoubt(mine, "call_b")).toBeUndefined();
    expect(await store.toolCalls.resolveInDoubt(mine, "call_a")).toBeUndefined();
    expect((await store.toolCalls.listInDoubtWrites({ principal: alice })).map((c) => c.toolCallId)).toEqual(["call_c"]);
  });

  it("modelCalls: each step's whole request back from rows of what changed, a subagent's chain apart, across a reopen", async () => {
    const { place, store } = await fresh();
    const sessionId = await withSession(store, "ses_steps");
    const tools = [{ name: "fetch_pr", description: "Fetch a PR.", inputSchema: { type: "object" } }];
    const usage = { inputTokens: 10, outputTokens: 2, cachedInputTokens: 0 };
    const record = (n: number, messages: unknown[], system = "You review PRs.") => ({
      step: n,
      startedAt: `2025-01-01T00:00:0${n}.000Z`,
      durationMs: 12.5,
      request: { system, messages, tools, params: { model: "scripted", provider: "bdk", modelId: "scripted" } },
      response: { text: `answer ${n}`, reasoning: "", toolCalls: [], finishReason: "stop", usage },
    });
    const first = { role: "user", content: "hi" };
    const reply = { role: "assistant", content: [{ type: "text", text: "hello" }] };
    const second = { role: "user", content: "again" };
    expect(await store.modelCalls.append(sessionId, "turn_1", "", record(0, [first]))).toBe(true);
    expect(await store.modelCalls.append(sessionId, "turn_2", "", record(0, [first, reply, second]))).toBe(true);
    await store.modelCalls.append(sessionId, "turn_2", "call_task", record(0, [{ role: "user", content: "sub" }], "You are a helper."));
    expect(await store.modelCalls.append(sessionId, "turn_2", "", record(0, [first]))).toBe(false);
    const expected = [
      { scope: "", step: 0, durationMs: 12.5, request: { system: "You review PRs.", messages: [first, reply, second], tools, params: { model: "scripted", provider: "bdk", modelId: "scripted" } } },
      { scope: "call_task", step: 0, request: { system: "You are a helper.", messages: [{ role: "user", content: "sub" }] } },
    ];
    expect(await store.modelCalls.ofTurns(sessionId, ["turn_2"])).toMatchObject(expected);
    const reopened = await place.open();
    expect(await reopened.modelCalls.ofTurns(sessionId, ["turn_2"])).toMatchObject(expected);
    expect(await reopened.modelCalls.ofTurns(sessionId, ["turn_1"])).toMatchObject([{ request: { messages: [first] }, response: { text: "answer 0" } }]);
    // Several turns in one read, in the order they ran.
    expect(await reopened.modelCalls.ofTurns(sessionId, ["turn_2", "turn_1"])).toEqual([
      ...(await reopened.modelCalls.ofTurns(sessionId, ["turn_1"])),
      ...(await reopened.modelCalls.ofTurns(sessionId, ["turn_2"])),
    ]);
  });

  it("modelCalls.copyToFork: the inherited turns' rows land under the fork's ids and fold to the same requests, the cut turn's limited to what it keeps", async () => {
    const { store } = await fresh();
    const source = await withSession(store, "ses_source");
    const fork = await withSession(store, "ses_fork");
    const record = (n: number, messages: unknown[]) => ({
      step: n,
      startedAt: `2025-01-01T00:00:0${n}.000Z`,
      durationMs: 5,
      request: { system: "You review PRs.", messages, tools: [], params: { model: "scripted", provider: "bdk", modelId: "scripted" } },
      response: { text: `answer ${n}`, reasoning: "", toolCalls: [], finishReason: "stop", usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 } },
    });
    const first = { role: "user", content: "hi" };
    const second = { role: "user", content: "again" };
    await store.modelCalls.append(source, "turn_1", "", record(0, [first]));
    await store.modelCalls.append(source, "turn_2", "", record(0, [first, second]));
    await store.modelCalls.append(source, "turn_2", "call_kept", record(0, [{ role: "user", content: "sub" }]));
    await store.modelCalls.append(source, "turn_2", "call_dropped", record(0, [{ role: "user", content: "sub 2" }]));
    await store.modelCalls.append(source, "turn_2", "", record(1, [first, second, { role: "user", content: "cut off" }]));
    const copied = await store.modelCalls.copyToFork(source, fork, [
      { sourceTurnId: "turn_1", forkTurnId: "turn_1" },
      { sourceTurnId: "turn_2", forkTurnId: "turn_f", keeps: { steps: [0], scopes: ["call_kept"] } },
    ]);
    expect(copied).toBe(3);
    const inSource = await store.modelCalls.ofTurns(source, ["turn_1", "turn_2"]);
    const kept = inSource.filter((call) => call.step === 0 && call.scope !== "call_dropped");
    expect(await store.modelCalls.ofTurns(fork, ["turn_1", "turn_f"])).toEqual(kept.map((call) => (call.turnId === "turn_2" ? { ...call, turnId: "turn_f" } : call)));
    // The source keeps its own rows, and the fork's next step chains on after the copied ones.
    expect(await store.modelCalls.ofTurns(source, ["turn_2"])).toHaveLength(4);
    await store.modelCalls.append(fork, "turn_f", "", record(1, [first, second, { role: "user", content: "the fork's" }]));
    expect((await store.modelCalls.ofTurns(fork, ["turn_f"])).map((call) => call.request.messages)).toEqual([
      [first, second],
      [{ role: "user", content: "sub" }],
      [first, second, { role: "user", content: "the fork's" }],
    ]);
  });

  describe("transactions", () => {
    it("commits the work of every repository together, effects after the commit", async () => {
      const { store } = await fresh();
      const id = await withSession(store);
      const seen: string[] = [];
      await store.transaction(async (tx) => {
        await tx.events.append(id, [step(0)]);
        await tx.turns.create({ id: "turn_tx", sessionId: id, message: "hi" });
        tx.afterCommit(() => seen.push("committed"));
        seen.push("working");
      });
      expect(seen).toEqual(["working", "committed"]);
      expect(await store.events.lastIndex(id)).toBe(0);
      expect(await store.turns.get("turn_tx")).toBeDefined();
    });

    it("rolls back everything on a rejection, effects dropped", async () => {
      const { store } = await fresh();
      const id = await withSession(store);
      const seen: string[] = [];
      await expect(
        store.transaction(async (tx) => {
          await tx.events.append(id, [step(0)]);
          await tx.kv.put("a", "k", 1);
          tx.afterCommit(() => seen.push("committed"));
          throw new Error("changed my mind");
        }),
      ).rejects.toThrow("changed my mind");
      expect(seen).toEqual([]);
      expect(await store.events.lastIndex(id)).toBe(-1);
      expect(await store.kv.get("a", "k")).toBeUndefined();
    });

    it("a nested transaction is a savepoint: its rejection undoes its work only, and its rollback hooks run", async () => {
      const { store } = await fresh();
      const id = await withSession(store);
      const seen: string[] = [];
      await store.transaction(async (tx) => {
        await tx.kv.put("a", "outer", 1);
        tx.onRollback(() => seen.push("outer undone"));
        await expect(
          store.transaction(async (nested) => {
            await nested.kv.put("a", "nested", 2);
            nested.onRollback(() => seen.push("nested undone"));
            nested.afterCommit(() => seen.push("nested committed"));
            // A duplicate id fails the statement: Postgres goes on only because the savepoint is rolled back.
            await nested.sessions.create({ id, mode: "chat", channel: "http", principal: alice });
          }),
        ).rejects.toThrow();
        await tx.kv.put("a", "after", 3);
      });
      expect(seen).toEqual(["nested undone"]);
      expect(await store.kv.get("a", "outer")).toBe(1);
      expect(await store.kv.get("a", "nested")).toBeUndefined();
      expect(await store.kv.get("a", "after")).toBe(3);
    });

    it("the rollback of the outer transaction runs the hooks of the savepoints released in it", async () => {
      const { store } = await fresh();
      const seen: string[] = [];
      await expect(
        store.transaction(async (tx) => {
          tx.onRollback(() => seen.push("outer undone"));
          await store.transaction(async (nested) => {
            await nested.kv.put("a", "nested", 2);
            nested.onRollback(() => seen.push("nested undone"));
          });
          throw new Error("changed my mind");
        }),
      ).rejects.toThrow("changed my mind");
      // Latest first: what was done last is undone first.
      expect(seen).toEqual(["nested undone", "outer undone"]);
      expect(await store.kv.get("a", "nested")).toBeUndefined();
    });

    it("a write from outside an open transaction, of this store or another one on the place, is its own: the rollback keeps it", async () => {
      // On SQLite the other store is another connection of this process: it must wait, not block the thread on the open transaction's lock.
      const { place, store } = await fresh();
      const other = await place.open();
      const held = heldOpen(store, (tx) => tx.kv.put("a", "inside", 1));
      await held.isOpen;
      const outside = [store.kv.put("a", "outside", 2), other.kv.put("a", "other", 3)];
      held.release();
      await expect(held.done).rejects.toThrow("rolled back");
      await Promise.all(outside);
      expect(await store.kv.get("a", "outside")).toBe(2);
      expect(await store.kv.get("a", "other")).toBe(3);
      expect(await store.kv.get("a", "inside")).toBeUndefined();
    });
  });

  it("artifacts: one record per owner, kind and key; contents on demand", async () => {
    const { store } = await fresh();
    const mine = await withSession(store, "ses_mine");
    const first = await store.artifacts.upsert({ kind: "report", key: "weekly", title: "v1", contents: "hello", sessionId: mine });
    const second = await store.artifacts.upsert({ kind: "report", key: "weekly", title: "v2", contents: "hello!", sessionId: mine });
    const unowned = await store.artifacts.upsert({ kind: "report", key: "weekly", title: "nobody's" });
    const unownedAgain = await store.artifacts.upsert({ kind: "report", key: "weekly", title: "nobody's, again" });
    expect(second).toMatchObject({ id: first.id, title: "v2", size: 6, owner: alice });
    expect(unownedAgain).toMatchObject({ id: unowned.id, owner: null, size: null });
    expect((await store.artifacts.contents(first.id))?.contents.toString()).toBe("hello!");
    expect((await store.artifacts.list({ visibleTo: bob })).map((a) => a.id)).toEqual([unowned.id]);
    expect(await store.artifacts.evictBeyond(1)).toBe(1);
  });

  it("evalRuns: runs with per-case verdicts, removed together", async () => {
    const time = manualClock();
    const { store } = await fresh(time.clock);
    const older = await store.evalRuns.create();
    time.advance(1000);
    const run = await store.evalRuns.create({ summary: { ids: ["greeting"] } });
    expect(run).toMatchObject({ id: expect.stringMatching(/^evr_/), status: "running", endedAt: null, summary: { ids: ["greeting"] } });
    await store.evalRuns.putCase(run.id, { caseId: "greeting/0001", verdict: "pending" });
    await store.evalRuns.putCase(run.id, { caseId: "greeting/0000", verdict: "passed", sessionId: "ses_1" });
    const assertions = [{ name: "includes", passed: false, severity: "error", message: "missing 'hi'" }];
    await store.evalRuns.putCase(run.id, { caseId: "greeting/0001", verdict: "failed", assertions, sessionId: "ses_2" });
    expect(await store.evalRuns.listCases(run.id)).toMatchObject([
      { caseId: "greeting/0000", verdict: "passed", assertions: null, sessionId: "ses_1" },
      { caseId: "greeting/0001", verdict: "failed", assertions, sessionId: "ses_2" },
    ]);
    const summary = { passed: 1, failed: 1 };
    expect(await store.evalRuns.update(run.id, { status: "completed", summary })).toMatchObject({ status: "completed", summary });
    expect((await store.evalRuns.list()).map((r) => r.id)).toEqual([run.id, older.id]);
    expect(await store.evalRuns.delete(run.id)).toBe(true);
    expect(await store.evalRuns.get(run.id)).toBeUndefined();
    expect(await store.evalRuns.listCases(run.id)).toEqual([]);
  });

  describe("logs", () => {
    it("filters by time and minimum level, the latest lines of each level oldest first", async () => {
      const time = manualClock("2025-01-01T00:00:00.000Z");
      const { store } = await fresh(time.clock);
      const levels = ["info", "debug", "warn", "error", "info", "warn"] as const;
      for (const [i, level] of levels.entries()) {
        await store.logs.append(level, `line ${i}`, i === 2 ? { sessionId: "ses_1" } : undefined);
        time.advance(1000);
      }
      const msgs = async (query: Parameters<AsyncStore["logs"]["list"]>[0]) => (await store.logs.list(query)).map((l) => l.msg);
      expect(await msgs({})).toEqual(levels.map((_, i) => `line ${i}`));
      expect(await msgs({ since: "2025-01-01T00:00:03.000Z" })).toEqual(["line 3", "line 4", "line 5"]);
      expect(await msgs({ level: "warn", since: "2025-01-01T00:00:02.500Z" })).toEqual(["line 3", "line 5"]);
      expect(await msgs({ limit: 1 })).toEqual(["line 1", "line 3", "line 4", "line 5"]);
      expect((await store.logs.list({ level: "warn" }))[0]).toMatchObject({ level: "warn", data: { sessionId: "ses_1" } });
    });

    it("lists the latest `limit` lines of each level, so one noisy level does not crowd the window", async () => {
      const { store } = await fresh();
      await store.logs.append("warn", "the only warning");
      for (let i = 0; i < 50; i++) await store.logs.append("debug", `metric ${i}`);
      const window = await store.logs.list({ limit: 10 });
      expect(window.map((line) => line.msg)).toEqual(["the only warning", ...Array.from({ length: 10 }, (_, i) => `metric ${40 + i}`)]);
    });

    it("keeps a ring per level: a flood of debug lines never evicts a warning or an error", async () => {
      const place = await dialect.place();
      const store = await place.open(undefined, { debug: 5, info: 5, warn: 5, error: 5 });
      await store.logs.append("warn", "disk almost full");
      await store.logs.append("error", "tool crashed");
      for (let i = 0; i < 100; i++) await store.logs.append("debug", "metric", { value: i });
      const all = await store.logs.list({ limit: 1000 });
      expect(all.filter((line) => line.level !== "debug").map((line) => line.msg)).toEqual(["disk almost full", "tool crashed"]);
      const debug = all.filter((line) => line.level === "debug");
      expect(debug.length).toBeLessThanOrEqual(10);
      expect(debug.at(-1)?.data).toMatchObject({ value: 99 });
    });
  });

  it("memory: notes by scope newest first, without one session's, forgotten per principal", async () => {
    const time = manualClock();
    const { store } = await fresh(time.clock);
    const s1 = await withSession(store, "ses_1");
    const s2 = await withSession(store, "ses_2");
    const add = async (sessionId: string, principal: typeof alice, note: string) => {
      time.advance(1000);
      return store.memory.add("bot", { scope: "agent", sessionId, turnId: "turn_1", principal, note });
    };
    const a = await add(s1, alice, "likes tea");
    const b = await add(s2, bob, "likes coffee");
    const c = await add(s2, alice, "prefers mornings");
    expect((await store.memory.recent("bot", "agent", { limit: 5 })).map((n) => n.id)).toEqual([c.id, b.id, a.id]);
    expect((await store.memory.recent("bot", "agent", { limit: 5, exceptSessionId: s2 })).map((n) => n.id)).toEqual([a.id]);
    expect((await store.memory.list("bot", { principal: alice })).map((n) => n.id)).toEqual([c.id, a.id]);
    expect(await store.memory.get("bot", b.id)).toMatchObject({ note: "likes coffee", principal: bob });
    expect(await store.memory.get("other", b.id)).toBeUndefined();
    expect(await store.memory.forget("bot", alice)).toBe(2);
    expect(await store.memory.delete("bot", b.id)).toBe(true);
    expect(await store.memory.list("bot")).toEqual([]);
  });

  it("idempotency: keeps an answer per session and key until purged", async () => {
    const time = manualClock();
    const { store } = await fresh(time.clock);
    const id = await withSession(store);
    await store.idempotency.put(id, "key-1", "digest", { turnId: "turn_1", accepted: true });
    expect(await store.idempotency.get(id, "key-1")).toEqual({ requestDigest: "digest", answer: { turnId: "turn_1", accepted: true }, createdAt: "2025-01-01T00:00:00.000Z" });
    await expect(store.idempotency.put(id, "key-1", "other", {})).rejects.toThrow();
    time.advance(1000);
    await store.idempotency.put(id, "key-2", "digest", {});
    expect(await store.idempotency.purgeBefore("2025-01-01T00:00:00.500Z")).toBe(1);
    expect(await store.idempotency.get(id, "key-1")).toBeUndefined();
    expect(await store.idempotency.get(id, "key-2")).toBeDefined();
  });
});
