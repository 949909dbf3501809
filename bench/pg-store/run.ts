/**
 * The store on Postgres: `npx tsx bench/pg-store/run.ts [appendCount] [reminderCount]`.
 * Starts a throwaway cluster (scripts/postgres.sh) unless DATABASE_URL is
 * set. Prints event appends per second (one per transaction, the SQLite
 * figure of bench/store beside it), and once-only reminder claims: two
 * stores (two pools, as two nodes) racing to claim every due reminder, the
 * claims per second and how many were claimed twice or not at all (both
 * must be 0).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EventDraft } from "../../server/protocol/events.ts";
import { type AsyncStore, asyncStore } from "../../server/store/async-store.ts";
import { openPgStore } from "../../server/store/pg/store.ts";
import { openStore } from "../../server/store/store.ts";

const appendCount = Number(process.argv[2] ?? 5_000);
const reminderCount = Number(process.argv[3] ?? 2_000);
const principal = { type: "user", id: "bench" } as const;
const draft = (i: number): EventDraft => ({ type: "message.appended", turnId: "turn_bench", data: { delta: `token ${i}, ` } });
const script = path.join(import.meta.dirname, "..", "..", "scripts", "postgres.sh");

let url = process.env.DATABASE_URL;
let cluster: string | undefined;
if (!url) {
  const vars = Object.fromEntries(
    execFileSync("bash", [script, "start"], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map((line) => line.split(/=(.*)/s).slice(0, 2)),
  );
  url = vars.DATABASE_URL;
  cluster = vars.BDK_PG_DIR;
}

async function appendsPerSecond(store: AsyncStore): Promise<number> {
  const id = (await store.sessions.create({ mode: "chat", channel: "http", principal })).id;
  const started = performance.now();
  for (let i = 0; i < appendCount; i++) await store.events.append(id, [draft(i)]);
  return appendCount / ((performance.now() - started) / 1000);
}

/** Two stores claim every reminder as fast as they can; returns claims/s and the anomalies. */
async function claimRace(a: AsyncStore, b: AsyncStore) {
  const dueAt = "2025-01-01T00:00:00.000Z";
  const ids: string[] = [];
  for (let i = 0; i < reminderCount; i++) ids.push((await a.reminders.create({ spec: { at: dueAt }, nextFireAt: dueAt })).id);
  const fired = { status: "done" as const, nextFireAt: null, lastFiredAt: dueAt };
  const wins = new Map<string, number>();
  const node = async (store: AsyncStore, order: string[]) => {
    for (const id of order) if (await store.reminders.claim(id, dueAt, fired)) wins.set(id, (wins.get(id) ?? 0) + 1);
  };
  const started = performance.now();
  // Several claimers per node, as a node's timer ticks overlap; the second node walks the list backwards.
  const lanes = 4;
  const slice = (order: string[], lane: number) => order.filter((_, i) => i % lanes === lane);
  await Promise.all([
    ...Array.from({ length: lanes }, (_, lane) => node(a, slice(ids, lane))),
    ...Array.from({ length: lanes }, (_, lane) => node(b, slice([...ids].reverse(), lane))),
  ]);
  const seconds = (performance.now() - started) / 1000;
  return {
    claimsPerSecond: reminderCount / seconds,
    twice: [...wins.values()].filter((n) => n > 1).length,
    never: ids.filter((id) => !wins.has(id)).length,
  };
}

const dir = mkdtempSync(path.join(tmpdir(), "bdk-bench-pg-"));
const sqlite = asyncStore(openStore(dir));
const a = await openPgStore(url!);
const b = await openPgStore(url!);
try {
  const pgAppends = await appendsPerSecond(a);
  const sqliteAppends = await appendsPerSecond(sqlite);
  console.log(`event appends, one per transaction: postgres ${pgAppends.toFixed(0)}/s, sqlite ${sqliteAppends.toFixed(0)}/s`);
  const race = await claimRace(a, b);
  console.log(
    `reminder claims, two nodes racing for ${reminderCount}: ${race.claimsPerSecond.toFixed(0)} claims/s, claimed twice ${race.twice}, never ${race.never}`,
  );
} finally {
  await Promise.all([a.close(), b.close(), sqlite.close()]);
  rmSync(dir, { recursive: true, force: true });
  if (cluster) execFileSync("bash", [script, "stop", cluster]);
}
