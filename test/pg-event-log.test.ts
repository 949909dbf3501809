/**
 * The Postgres event log against a real PostgreSQL (scripts/postgres.sh):
 * two nodes (two connection pools, or two processes) writing one session
 * at once. Indexes stay gap-free, and once a node's lease is taken over
 * nothing it appends is stored.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { AnyBdkEvent } from "../server/protocol/events.ts";
import { createPgEventLog } from "../server/store/pg/event-log.ts";
import { LeaseLostError } from "../server/store/pg/lease-lost.ts";
import { createSessionOwners, type SessionLease } from "../server/store/pg/session-owners.ts";
import { openPgStore, type PgStore } from "../server/store/pg/store.ts";
import { KIT_DIR } from "./support/bdk-server.ts";
import { type TestDatabase, testDatabase } from "./support/postgres.ts";

const MIGRATIONS = JSON.parse(readFileSync(path.join(KIT_DIR, "server/store/pg/migrations/meta/_journal.json"), "utf8")) as { entries: unknown[] };

let database: TestDatabase;
const stores: PgStore[] = [];

/** One `bdk serve` node's view of the database: a store of its own (its own pool of connections). */
async function node() {
  const store = await openPgStore(database.url, { maxConnections: 8 });
  stores.push(store);
  return { store, owners: createSessionOwners(store.pool), log: createPgEventLog(store.pool) };
}

/** The session row every owner and event refers to. */
async function session(id: string): Promise<void> {
  const { store } = await node();
  await store.sessions.create({ id, mode: "chat", channel: "test", principal: { type: "user", id: "alice" } });
}

beforeAll(async () => {
  database = await testDatabase();
}, 300_000);

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await database?.drop();
}, 120_000);

const said = (event: AnyBdkEvent) => (event.type === "message.received" ? event.data.message : "");
const message = (text: string) => ({ type: "message.received" as const, data: { message: text } });

/** Takes the session once the other holder's lease has lapsed. */
async function takeOver(owners: Awaited<ReturnType<typeof node>>["owners"], sessionId: string, holder: string): Promise<SessionLease> {
  for (;;) {
    const lease = await owners.acquire(sessionId, holder, 60_000);
    if (lease) return lease;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it("migrates once when three nodes open the database at the same time", async () => {
  const [a] = await Promise.all([node(), node(), node()]);
  const { rows } = await a.store.pool.query("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
  // One row per migration in the journal, however many nodes applied them at once.
  expect(rows[0].n).toBe(MIGRATIONS.entries.length);
  const tables = await a.store.pool.query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('events', 'session_owners')");
  expect(tables.rows[0].n).toBe(2);
});

it("keeps indexes gap-free while two nodes append to one session concurrently", async () => {
  const [a, b] = [await node(), await node()];
  await session("ses_gapfree");
  const lease = (await a.owners.acquire("ses_gapfree", "node-a", 60_000))!;
  // The owner's appends arrive over both nodes' connections at once (a follow-up admitted on B, the turn on A).
  const batches = await Promise.all(
    Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).log.append(lease, [message(`batch ${i} first`), message(`batch ${i} second`)])),
  );
  const stored = await b.store.events.list("ses_gapfree");
  expect(stored.map((event) => event.index)).toEqual(stored.map((_, i) => i));
  expect(stored).toHaveLength(120);
  // Each append's events are stored together, in order, with the indexes it was told.
  for (const [i, batch] of batches.entries()) {
    expect(batch.map(said)).toEqual([`batch ${i} first`, `batch ${i} second`]);
    expect(batch[1].index).toBe(batch[0].index + 1);
    expect(stored[batch[0].index]).toEqual(batch[0]);
  }
});

it("refuses every append of a node whose lease was taken over, even mid-stream", async () => {
  const [a, b] = [await node(), await node()];
  await session("ses_fenced");
  const stale = (await a.owners.acquire("ses_fenced", "node-a", 300))!;
  expect(await b.owners.acquire("ses_fenced", "node-b", 60_000)).toBeUndefined();

  // Node A keeps appending (without heartbeats) until it is refused; node B takes over when A's lease lapses.
  const appendedByA: number[] = [];
  const writerA = (async () => {
    for (let i = 0; ; i++) {
      try {
        const [event] = await a.log.append(stale, [message(`a ${i}`)]);
        appendedByA.push(event.index);
      } catch (error) {
        return error;
      }
    }
  })();
  const lease = await takeOver(b.owners, "ses_fenced", "node-b");
  expect(lease.token).toBeGreaterThan(stale.token);
  const refused = await writerA;
  expect(appendedByA.length).toBeGreaterThan(0);
  expect(refused).toBeInstanceOf(LeaseLostError);
  expect((refused as Error).message).toContain(`token ${stale.token} no longer owns session ses_fenced`);
  await expect(a.log.append(stale, [message("a late")])).rejects.toBeInstanceOf(LeaseLostError);
  expect(await a.owners.heartbeat(stale, 60_000)).toBe(false);

  await b.log.append(lease, [message("b 0"), message("b 1")]);
  expect(await b.owners.heartbeat(lease, 60_000)).toBe(true);
  const stored = await a.store.events.list("ses_fenced");
  expect(stored.map((event) => event.index)).toEqual(stored.map((_, i) => i));
  // Everything A stored comes before B's first event; nothing of A's after the takeover.
  expect(stored.map(said)).toEqual([...appendedByA.map((_, i) => `a ${i}`), "b 0", "b 1"]);

  // Released, the session is free for the next node at once, with a higher token again.
  await b.owners.release(lease);
  const next = await a.owners.acquire("ses_fenced", "node-a", 60_000);
  expect(next?.token).toBeGreaterThan(lease.token);
  await expect(b.log.append(lease, [message("b late")])).rejects.toBeInstanceOf(LeaseLostError);
}, 120_000);

const WORKER = path.join(KIT_DIR, "server", "store", "pg", "testing", "append-worker.ts");

/** A node as a process of its own (append-worker.ts); `lines` fills with what it prints. */
function nodeProcess(sessionId: string, holder: string, ttlMs: number, count: number) {
  const child = spawn(process.execPath, ["--import", "tsx", WORKER, database.url, sessionId, holder, String(ttlMs), String(count)], {
    cwd: KIT_DIR,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: string[] = [];
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split("\n");
    buffer = parts.pop()!;
    lines.push(...parts);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { child, lines, exited };
}

/** Waits until the process has printed a line that `match`es (or exited without). */
async function printed(node: { child: ChildProcess; lines: string[] }, match: (lines: string[]) => boolean): Promise<void> {
  while (!match(node.lines)) {
    if (node.child.exitCode !== null) throw new Error(`the worker exited: ${node.lines.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it("refuses a paused owner's appends once another process took the session over (the fencing token)", async () => {
  await session("ses_paused");
  // Node A owns the session with a short lease and keeps it alive with heartbeats, until it is paused (a GC pause, a partition).
  const a = nodeProcess("ses_paused", "node-a", 500, 1_000_000);
  await printed(a, (lines) => lines.filter((line) => line.startsWith("appended")).length >= 5);
  a.child.kill("SIGSTOP");
  try {
    // Node B takes over once A's lease lapses, and writes.
    const b = nodeProcess("ses_paused", "node-b", 60_000, 20);
    await b.exited;
    expect(b.lines.at(-1)).toBe("done");
    const tokenOf = (lines: string[]) => Number(lines.find((line) => line.startsWith("acquired"))!.split(" ")[1]);
    expect(tokenOf(b.lines)).toBeGreaterThan(tokenOf(a.lines));
  } finally {
    a.child.kill("SIGCONT");
  }
  // A wakes up and is refused: by its token, or, if it was paused inside an append, by the server having ended that transaction.
  await a.exited;
  expect(a.lines.at(-1)).toMatch(/^(refused: The holder of token \d+ no longer owns session ses_paused|failed: )/);

  const stored = await (await node()).store.events.list("ses_paused");
  expect(stored.map((event) => event.index)).toEqual(stored.map((_, i) => i));
  const byA = stored.filter((event) => said(event).startsWith("node-a"));
  const byB = stored.filter((event) => said(event).startsWith("node-b"));
  expect(byB.map(said)).toEqual(Array.from({ length: 20 }, (_, i) => `node-b ${i}`));
  expect(byA.map(said)).toEqual(byA.map((_, i) => `node-a ${i}`));
  // Nothing of A's after B's first event: a stale owner's writes never land.
  expect(stored.map(said)).toEqual([...byA.map(said), ...byB.map(said)]);
  // Every append A was told succeeded is stored.
  const toldA = a.lines.filter((line) => line.startsWith("appended")).map((line) => Number(line.split(" ")[1]));
  expect(toldA).toEqual(byA.map((event) => event.index));
}, 120_000);
