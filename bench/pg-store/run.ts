/**
 * The store on Postgres: `npx tsx bench/pg-store/run.ts [appendCount] [claimCount]`.
 * Starts a throwaway cluster (scripts/postgres.sh) unless DATABASE_URL is
 * set. Prints event appends per second (one per transaction, the SQLite
 * figure of bench/store beside it), and once-only claims of reminders and
 * of schedule ticks: two stores (two pools, as two nodes) racing to claim
 * every due one, the claims per second and how many were claimed twice or
 * not at all (both must be 0).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EventDraft } from "../../server/protocol/events.ts";
import { type AsyncStore, asyncStore } from "../../server/store/async-store.ts";
import { openPgStore } from "../../server/store/pg/store.ts";
import { openStore } from "../../server/store/store.ts";
import { benchDatabase } from "../support/postgres.ts";

const appendCount = Number(process.argv[2] ?? 5_000);
const claimCount = Number(process.argv[3] ?? 2_000);
const principal = { type: "user", id: "bench" } as const;
const draft = (i: number): EventDraft => ({ type: "message.appended", turnId: "turn_bench", data: { delta: `token ${i}, ` } });

const database = benchDatabase();
const url = database.url;

async function appendsPerSecond(store: AsyncStore): Promise<number> {
  const id = (await store.sessions.create({ mode: "chat", channel: "http", principal })).id;
  const started = performance.now();
  for (let i = 0; i < appendCount; i++) await store.events.append(id, [draft(i)]);
  return appendCount / ((performance.now() - started) / 1000);
}

type Claim = (key: string) => Promise<boolean>;

/** Two nodes claim every key as fast as they can; returns claims/s and the anomalies. */
async function claimRace(keys: string[], claimA: Claim, claimB: Claim) {
  const wins = new Map<string, number>();
  const node = async (claim: Claim, order: string[]) => {
    for (const key of order) if (await claim(key)) wins.set(key, (wins.get(key) ?? 0) + 1);
  };
  const started = performance.now();
  // Several claimers per node, as a node's timer ticks overlap; the second node walks the list backwards.
  const lanes = 4;
  const slice = (order: string[], lane: number) => order.filter((_, i) => i % lanes === lane);
  await Promise.all([
    ...Array.from({ length: lanes }, (_, lane) => node(claimA, slice(keys, lane))),
    ...Array.from({ length: lanes }, (_, lane) => node(claimB, slice([...keys].reverse(), lane))),
  ]);
  const seconds = (performance.now() - started) / 1000;
  return {
    claimsPerSecond: keys.length / seconds,
    twice: [...wins.values()].filter((n) => n > 1).length,
    never: keys.filter((key) => !wins.has(key)).length,
  };
}

async function reminderRace(a: AsyncStore, b: AsyncStore) {
  const dueAt = "2025-01-01T00:00:00.000Z";
  const ids: string[] = [];
  for (let i = 0; i < claimCount; i++) ids.push((await a.reminders.create({ spec: { at: dueAt }, nextFireAt: dueAt })).id);
  const fired = { status: "done" as const, nextFireAt: null, lastFiredAt: dueAt };
  const claimOn = (store: AsyncStore): Claim => async (id) => (await store.reminders.claim(id, dueAt, fired)) !== undefined;
  return claimRace(ids, claimOn(a), claimOn(b));
}

async function tickRace(a: AsyncStore, b: AsyncStore) {
  const ticks = Array.from({ length: claimCount }, (_, i) => new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString());
  const claimOn = (store: AsyncStore, holder: string): Claim => (tick) => store.scheduleTicks.claim("bench/sweep", tick, holder);
  return claimRace(ticks, claimOn(a, "node-a"), claimOn(b, "node-b"));
}

const report = (what: string, race: Awaited<ReturnType<typeof claimRace>>) =>
  console.log(`${what}, two nodes racing for ${claimCount}: ${race.claimsPerSecond.toFixed(0)} claims/s, claimed twice ${race.twice}, never ${race.never}`);

const dir = mkdtempSync(path.join(tmpdir(), "bdk-bench-pg-"));
const sqlite = asyncStore(openStore(dir));
const a = await openPgStore(url);
const b = await openPgStore(url);
try {
  const pgAppends = await appendsPerSecond(a);
  const sqliteAppends = await appendsPerSecond(sqlite);
  console.log(`event appends, one per transaction: postgres ${pgAppends.toFixed(0)}/s, sqlite ${sqliteAppends.toFixed(0)}/s`);
  report("reminder claims", await reminderRace(a, b));
  report("schedule tick claims", await tickRace(a, b));
} finally {
  await Promise.all([a.close(), b.close(), sqlite.close()]);
  rmSync(dir, { recursive: true, force: true });
  database.stop();
}
