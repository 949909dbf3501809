/**
 * The Postgres event log against a real PostgreSQL (scripts/postgres.sh):
 * two nodes (two connection pools) writing one session at once. Indexes
 * stay gap-free, and once a node's lease is taken over nothing it appends
 * is stored.
 */
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { AnyBdkEvent } from "../server/protocol/events.ts";
import { createPgEventLog, LeaseLostError } from "../server/store/pg/event-log.ts";
import { migrate } from "../server/store/pg/schema.ts";
import { createSessionOwners, type SessionLease } from "../server/store/pg/session-owners.ts";
import { type TestDatabase, testDatabase } from "./support/postgres.ts";

let database: TestDatabase;
const pools: pg.Pool[] = [];

/** One `bdk serve` node's view of the database: its own pool of connections. */
function node() {
  const pool = new pg.Pool({ connectionString: database.url, max: 8 });
  pools.push(pool);
  return { pool, owners: createSessionOwners(pool), log: createPgEventLog(pool) };
}

beforeAll(async () => {
  database = await testDatabase();
}, 300_000);

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await database?.drop();
}, 120_000);

const said = (event: AnyBdkEvent) => (event.type === "message.received" ? event.data.message : "");
const message = (text: string) => ({ type: "message.received" as const, data: { message: text } });

/** Takes the session once the other holder's lease has lapsed. */
async function takeOver(owners: ReturnType<typeof node>["owners"], sessionId: string, holder: string): Promise<SessionLease> {
  for (;;) {
    const lease = await owners.acquire(sessionId, holder, 60_000);
    if (lease) return lease;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it("creates its tables once when two nodes open the database at the same time", async () => {
  const [a, b] = [node(), node()];
  await Promise.all([migrate(a.pool), migrate(b.pool), migrate(a.pool)]);
  const { rows } = await a.pool.query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('events', 'session_owners')");
  expect(rows[0].n).toBe(2);
});

it("keeps indexes gap-free while two nodes append to one session concurrently", async () => {
  const [a, b] = [node(), node()];
  await migrate(a.pool);
  const lease = (await a.owners.acquire("ses_gapfree", "node-a", 60_000))!;
  // The owner's appends arrive over both nodes' connections at once (a follow-up admitted on B, the turn on A).
  const batches = await Promise.all(
    Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).log.append(lease, [message(`batch ${i} first`), message(`batch ${i} second`)])),
  );
  const stored = await b.log.list("ses_gapfree");
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
  const [a, b] = [node(), node()];
  await migrate(a.pool);
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
  expect((refused as Error).message).toMatch(/node-a no longer owns session ses_fenced/);
  await expect(a.log.append(stale, [message("a late")])).rejects.toBeInstanceOf(LeaseLostError);
  expect(await a.owners.heartbeat(stale, 60_000)).toBe(false);

  await b.log.append(lease, [message("b 0"), message("b 1")]);
  expect(await b.owners.heartbeat(lease, 60_000)).toBe(true);
  const stored = await a.log.list("ses_fenced");
  expect(stored.map((event) => event.index)).toEqual(stored.map((_, i) => i));
  // Everything A stored comes before B's first event; nothing of A's after the takeover.
  expect(stored.map(said)).toEqual([...appendedByA.map((_, i) => `a ${i}`), "b 0", "b 1"]);

  // Released, the session is free for the next node at once, with a higher token again.
  await b.owners.release(lease);
  const next = await a.owners.acquire("ses_fenced", "node-a", 60_000);
  expect(next?.token).toBeGreaterThan(lease.token);
  await expect(b.log.append(lease, [message("b late")])).rejects.toBeInstanceOf(LeaseLostError);
}, 120_000);
