/**
 * The fenced event append on Postgres, sent as a named (prepared) statement
 * or as an unnamed one with the same text: `npx tsx bench/cluster/append.ts
 * [--appends 4000] [--rounds 4]`. Each round appends `--appends` bursts of
 * three events to 50 sessions (a lease each), 10 in flight, once each way
 * in turn, and prints this process's CPU and Postgres's execution time per
 * append (pg_stat_statements), and appends/s. The throwaway cluster is
 * scripts/postgres.sh's, or BDK_TEST_DATABASE_URL's.
 */
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import pg from "pg";
import { openPgStore } from "../../server/store/pg/store.ts";
import { APPEND_EVENTS } from "../../server/store/pg/events.ts";
import { createSessionOwners, type SessionLease } from "../../server/store/pg/session-owners.ts";
import { testDatabase } from "../../test/support/postgres.ts";
import { fmt, median } from "../http/workloads.ts";

const { values: options } = parseArgs({ options: { appends: { type: "string", default: "4000" }, rounds: { type: "string", default: "4" } } });
const APPENDS = Number(options.appends);
const ROUNDS = Number(options.rounds);
const SESSIONS = 50;
const IN_FLIGHT = 10;

// track_planning: an unnamed statement is planned on every call, and that time is what a prepared one saves.
process.env.BDK_PG_SETTINGS ??= "-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_planning=on";
const database = await testDatabase();
const store = await openPgStore(database.url, { maxConnections: IN_FLIGHT });
const stats = new pg.Client({ connectionString: database.url });
await stats.connect();
try {
  await stats.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  const owners = createSessionOwners(store.pool);
  const leases: SessionLease[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    await store.sessions.create({ id: `ses_bench_${i}`, mode: "chat", channel: "bench", principal: { type: "user", id: "bench" } });
    leases.push((await owners.acquire(`ses_bench_${i}`, "bench", 3_600_000))!);
  }
  const burst = ["model.delta", "action.called", "action.result"];
  const run = async (named: boolean) => {
    await stats.query("SELECT pg_stat_statements_reset()");
    let next = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const worker = async () => {
      for (let i = next++; i < APPENDS; i = next++) {
        const lease = leases[i % SESSIONS];
        const values = [lease.sessionId, new Date().toISOString(), burst, burst.map(() => "turn_bench"), burst.map((type) => JSON.stringify({ type, i })), lease.token];
        await store.pool.query(named ? { name: "bdk_append_events", text: APPEND_EVENTS, values } : { text: APPEND_EVENTS, values });
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const { rows } = await stats.query<{ ms: number }>("SELECT coalesce(sum(total_exec_time + total_plan_time), 0) AS ms FROM pg_stat_statements WHERE query LIKE '%WITH owner AS%'");
    return { perSecond: APPENDS / seconds, nodeMs: (used.user + used.system) / 1000 / APPENDS, pgMs: Number(rows[0].ms) / APPENDS };
  };
  const results = { named: [] as Awaited<ReturnType<typeof run>>[], unnamed: [] as Awaited<ReturnType<typeof run>>[] };
  await run(true);
  await run(false);
  for (let round = 0; round < ROUNDS; round++) {
    for (const named of [true, false]) {
      const figures = await run(named);
      results[named ? "named" : "unnamed"].push(figures);
      console.log(`round ${round + 1}, ${named ? "named" : "unnamed"}: ${fmt(figures.perSecond)} appends/s, this process ${figures.nodeMs.toFixed(3)} ms CPU, Postgres ${figures.pgMs.toFixed(3)} ms plan+execute per append`);
    }
  }
  for (const [name, all] of Object.entries(results)) {
    console.log(`median, ${name}: ${fmt(median(all.map((f) => f.perSecond)))} appends/s, this process ${median(all.map((f) => f.nodeMs)).toFixed(3)} ms CPU, Postgres ${median(all.map((f) => f.pgMs)).toFixed(3)} ms per append`);
  }
} finally {
  await stats.end();
  await store.close();
  await database.drop();
}
