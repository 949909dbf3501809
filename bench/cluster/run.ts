/**
 * Scale-out on Postgres (issue 16): `npx tsx bench/cluster/run.ts [--rounds 3] [--sessions 500] [--concurrency 50] [--profile]`.
 *
 * `bdk serve` of pr-approver (scripted model) as (a) one node on SQLite,
 * (b) one node on Postgres, (c) two nodes on one Postgres database, the
 * client alternating sessions between them, and (d) the same two nodes with
 * each session's follow-up sent to the other node than its start. The
 * workload: `--sessions` conversations, `--concurrency` at a time, each a
 * start and a follow-up turn, each turn followed on its stream to its end.
 * Rounds are interleaved (a, b, c, d, a, b, …) and the medians printed, with
 * (c) ÷ (a) against the 1.5× target. The Postgres cluster is a throwaway one
 * (scripts/postgres.sh, with pg_stat_statements), or BDK_TEST_DATABASE_URL's.
 *
 * When (c) ÷ (a) misses the target (or with `--profile`), one more run of
 * (a) and of (c) is profiled: the CPU each process spent per turn (nodes,
 * Postgres, this client) and, on Postgres, the statements per turn and the
 * most frequent ones (pg_stat_statements).
 */
import { availableParallelism, loadavg } from "node:os";
import { Agent } from "node:http";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import pg from "pg";
import { KIT_DIR, readNdjson, type RunningServer, startServer } from "../../test/support/bdk-server.ts";
import { chargeBot } from "../../test/support/charge-bot.ts";
import { testDatabase } from "../../test/support/postgres.ts";
import { cpuMsOf, fmt, procStat, followWithNodeHttp, median, percentile, postJson } from "../http/workloads.ts";

const { values: options } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    sessions: { type: "string", default: "500" },
    concurrency: { type: "string", default: "50" },
    profile: { type: "boolean", default: false },
    // Only the takeover figure (it needs no throughput rounds).
    "takeover-only": { type: "boolean", default: false },
  },
});
const ROUNDS = Number(options.rounds);
const SESSIONS = Number(options.sessions);
const CONCURRENCY = Number(options.concurrency);
const DIR = path.join(KIT_DIR, "bot-examples", "pr-approver");
const TARGET_RATIO = 1.5;

interface Figures {
  turnsPerSecond: number;
  p50: number;
  p99: number;
}

interface Setup {
  name: string;
  nodes: RunningServer[];
  /** The follow-up goes to the node after the one that started the session. */
  crossNode: boolean;
}

/**
 * One turn: the POST, then its stream (from `startIndex`) until the session
 * waits again. Its latency is POST → `turn.completed`, as bench/http's turn
 * overhead; returns the index of `session.waiting`, where the next turn's
 * events start.
 */
async function turn(agent: Agent, node: RunningServer, body: object, latencies: number[], session?: { id: string; startIndex: number }) {
  const started = performance.now();
  const route = session ? `/v1/session/${session.id}` : "/v1/session";
  const created = await postJson<{ sessionId?: string; continuationToken?: string; error?: unknown }>(agent, `${node.url}${route}`, body);
  if (created.error || !created.sessionId) throw new Error(`POST ${route} on ${node.url} was refused: ${JSON.stringify(created.error)}`);
  const id = created.sessionId;
  const startIndex = session?.startIndex ?? 0;
  let waitingAt = -1;
  let failed: string | undefined;
  await followWithNodeHttp(`${node.url}/v1/session/${id}/stream?startIndex=${startIndex}`, (event) => {
    // Not thrown here: this runs in the response's data handler, where a throw would escape the run (and its cleanup).
    if (event.type === "turn.failed" || event.type === "session.failed") failed = event.type;
    if (event.type === "turn.completed") latencies.push(performance.now() - started);
    if (event.type === "session.waiting") waitingAt = event.index;
    return failed !== undefined || waitingAt !== -1;
  });
  if (failed) throw new Error(`session ${id} on ${node.url}: ${failed}`);
  return { id, waitingAt, continuationToken: created.continuationToken };
}

/** `SESSIONS` conversations of two turns, `CONCURRENCY` at a time, session i starting on node i mod n. */
async function conversations(setup: Setup, sessions = SESSIONS): Promise<Figures> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2 });
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < sessions; i = next++) {
      const first = setup.nodes[i % setup.nodes.length];
      const second = setup.nodes[(i + (setup.crossNode ? 1 : 0)) % setup.nodes.length];
      const start = await turn(agent, first, { message: "hello", title: "bench-cluster" }, latencies);
      const followUp = { message: "and again", continuationToken: start.continuationToken };
      await turn(agent, second, followUp, latencies, { id: start.id, startIndex: start.waitingAt + 1 });
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - started) / 1000;
  return { turnsPerSecond: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

const line = (f: Figures) => `${fmt(f.turnsPerSecond)} turns/s, p50 ${fmt(f.p50)} ms, p99 ${fmt(f.p99)} ms`;

/**
 * The CPU (ms) of a Postgres cluster running on this machine: the
 * postmaster, the backends it has reaped (a pool closes idle connections)
 * and every live child (backends, WAL writer, …).
 */
function postgresCpuMs(postmaster: number | undefined): number | undefined {
  if (postmaster === undefined) return undefined;
  const own = procStat(postmaster);
  let total = own.cpuMs + own.reapedChildrenCpuMs;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const child = procStat(Number(entry));
      if (child.parent === postmaster) total += child.cpuMs;
    } catch {
      // exited while we read
    }
  }
  return total;
}

/** The postmaster's pid when the cluster's data directory is readable here (a local cluster). */
async function postmasterPid(client: pg.Client): Promise<number | undefined> {
  try {
    const { rows } = await client.query<{ data_directory: string }>("SHOW data_directory");
    return Number(readFileSync(path.join(rows[0].data_directory, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return undefined;
  }
}

interface Statement {
  calls: string;
  total_exec_time: number;
  query: string;
}

/** pg_stat_statements on the database, reset; undefined (and why, printed) when the cluster lacks it. */
async function statementStats(client: pg.Client): Promise<(() => Promise<Statement[]>) | undefined> {
  try {
    await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    await client.query("SELECT pg_stat_statements_reset()");
  } catch (error) {
    console.log(`  no pg_stat_statements on this cluster (${(error as Error).message.split("\n")[0]}): CPU only`);
    return undefined;
  }
  return async () =>
    (
      await client.query<Statement>(
        "SELECT calls, total_exec_time, query FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY calls DESC",
      )
    ).rows;
}

/**
 * One profiled run of `setup`: CPU per turn of each process and, on
 * Postgres, the statements per turn from pg_stat_statements (its counts are
 * per database, so the nodes' background work, schedules and reminders, is
 * in them too).
 */
async function profile(setup: Setup, databaseUrl?: string) {
  const client = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : undefined;
  await client?.connect();
  try {
    const statements = client && (await statementStats(client));
    const postmaster = client && (await postmasterPid(client));
    const sessions = Math.min(SESSIONS, 200);
    const nodesBefore = setup.nodes.map((node) => cpuMsOf(node.child.pid!));
    const pgBefore = postgresCpuMs(postmaster);
    const clientBefore = process.cpuUsage();
    const started = performance.now();
    const figures = await conversations(setup, sessions);
    const wallMs = performance.now() - started;
    const turns = sessions * 2;
    const perTurn = (ms: number) => `${(ms / turns).toFixed(2)} ms`;
    const cpu = setup.nodes.map((node, i) => `node ${i + 1} ${perTurn(cpuMsOf(node.child.pid!) - nodesBefore[i])}`);
    const pgAfter = postgresCpuMs(postmaster);
    if (pgBefore !== undefined) cpu.push(`postgres ${perTurn(pgAfter! - pgBefore)}`);
    else if (client) cpu.push("postgres n/a (not a local cluster)");
    const clientUsage = process.cpuUsage(clientBefore);
    cpu.push(`this client ${perTurn((clientUsage.user + clientUsage.system) / 1000)}`);
    console.log(`profile, ${setup.name}, ${sessions} sessions (${line(figures)}), per turn: CPU ${cpu.join(", ")}; wall ${perTurn(wallMs)} on ${availableParallelism()} cores`);
    if (!statements) return;
    const rows = await statements();
    const calls = rows.reduce((sum, row) => sum + Number(row.calls), 0);
    const execMs = rows.reduce((sum, row) => sum + row.total_exec_time, 0);
    console.log(`  statements per turn: ${fmt(calls / turns)} (each a round trip, BEGIN and COMMIT included), executing ${perTurn(execMs)} in Postgres; the most frequent:`);
    for (const row of rows.slice(0, 30)) {
      const shown = row.query.replace(/\s+/g, " ").slice(0, 150);
      console.log(`  ${(Number(row.calls) / turns).toFixed(2).padStart(6)}/turn ${perTurn(row.total_exec_time).padStart(9)}  ${shown}`);
    }
  } finally {
    await client?.end();
  }
}

/** Cross-node stream delivery p99 (target < 100 ms) has a bench of its own. */
function crossNodeDelivery() {
  console.log("cross-node stream delivery p99 (target < 100 ms): run bench/cluster/delivery.ts");
}

/**
 * Takeover after a kill (target < 10 s): two nodes on a database of their
 * own, a turn on A inside a write tool that never returns (test/support/
 * charge-bot.ts), `kill -9` of A, then the time until B's stream shows the
 * turn ended (`interrupted`, its call in doubt). The lease is the default
 * unless BDK_SESSION_LEASE_MS is set for the bench.
 */
async function takeoverAfterKill(databaseUrl: string, kills = 3) {
  const { dir, chargeLog, charges } = chargeBot("bench-takeover");
  const charged = async (count: number) => {
    while (charges().split("\n").filter(Boolean).length < count) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const env: Record<string, string> = { BDK_DATABASE_URL: databaseUrl, CHARGE_LOG: chargeLog };
  if (process.env.BDK_SESSION_LEASE_MS) env.BDK_SESSION_LEASE_MS = process.env.BDK_SESSION_LEASE_MS;
  const waits: number[] = [];
  for (let i = 0; i < kills; i++) {
    const [a, b] = await Promise.all([startServer({ dir, env }), startServer({ dir, env })]);
    try {
      const response = await fetch(`${a.url}/v1/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: 'charge_card {"amount": 1}' }) });
      const { sessionId } = (await response.json()) as { sessionId: string };
      await charged(i + 1);
      await a.stop("SIGKILL");
      const killedAt = performance.now();
      const events = await readNdjson<{ type: string; data: { status?: string } }>(await fetch(`${b.url}/v1/session/${sessionId}/stream`), (event) => event.type === "session.waiting");
      waits.push(performance.now() - killedAt);
      const ended = events.find((event) => event.type === "turn.failed");
      if (ended?.data.status !== "interrupted") throw new Error(`takeover: the turn ended ${JSON.stringify(ended?.data)}, not interrupted`);
    } finally {
      await Promise.all([a.stop("SIGKILL"), b.stop()]);
      for (const server of [a, b]) rmSync(server.stateRoot, { recursive: true, force: true });
    }
  }
  const lease = env.BDK_SESSION_LEASE_MS ? `${env.BDK_SESSION_LEASE_MS} ms` : "the default";
  console.log(`takeover after kill -9 of the owning node (lease ${lease}, target < 10 s): median ${fmt(median(waits))} ms, max ${fmt(Math.max(...waits))} ms over ${kills} kills`);
}

process.env.BDK_PG_SETTINGS ??= "-c shared_preload_libraries=pg_stat_statements";
const database = await testDatabase();
const servers: RunningServer[] = [];
const serve = async (databaseUrl?: string) => {
  const server = await startServer({ dir: DIR, env: databaseUrl ? { BDK_DATABASE_URL: databaseUrl } : {} });
  servers.push(server);
  return server;
};
try {
  if (options["takeover-only"]) await takeoverAfterKill(await database.fresh());
  else await throughput();
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  for (const server of servers) rmSync(server.stateRoot, { recursive: true, force: true });
  await database.drop();
}

/** The throughput setups (a)–(d), the delivery pointer and the takeover figure. */
async function throughput() {
  const twoNodesUrl = await database.fresh();
  const sqlite = await serve();
  const pgOne = await serve(database.url);
  const pgTwo = [await serve(twoNodesUrl), await serve(twoNodesUrl)];
  const setups: Setup[] = [
    { name: "(a) one node, SQLite", nodes: [sqlite], crossNode: false },
    { name: "(b) one node, Postgres", nodes: [pgOne], crossNode: false },
    { name: "(c) two nodes, Postgres", nodes: pgTwo, crossNode: false },
    { name: "(d) two nodes, Postgres, follow-up on the other node", nodes: pgTwo, crossNode: true },
  ];
  console.log(
    `${SESSIONS} sessions × 2 turns at concurrency ${CONCURRENCY}, ${ROUNDS} interleaved rounds; Node ${process.version}; ` +
      `${availableParallelism()} cores shared by Postgres, every node and this client (load average ${loadavg()[0].toFixed(2)} at start)`,
  );
  // One unmeasured warm-up conversation per setup: each node's first turn loads the agent.
  for (const setup of setups) await conversations(setup, setup.nodes.length);
  const results = new Map<Setup, Figures[]>(setups.map((setup) => [setup, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const setup of setups) {
      const figures = await conversations(setup);
      results.get(setup)!.push(figures);
      console.log(`round ${round + 1}, ${setup.name}: ${line(figures)}`);
    }
  }
  const medians = new Map(
    setups.map((setup) => {
      const all = results.get(setup)!;
      return [setup, { turnsPerSecond: median(all.map((f) => f.turnsPerSecond)), p50: median(all.map((f) => f.p50)), p99: median(all.map((f) => f.p99)) }];
    }),
  );
  console.log("medians:");
  for (const setup of setups) console.log(`  ${setup.name}: ${line(medians.get(setup)!)}`);
  const base = medians.get(setups[0])!.turnsPerSecond;
  const ratio = (setup: Setup) => medians.get(setup)!.turnsPerSecond / base;
  console.log(
    `two nodes on Postgres ÷ one node on SQLite: ${ratio(setups[2]).toFixed(2)}× (follow-ups across nodes ${ratio(setups[3]).toFixed(2)}×) (target ≥ ${TARGET_RATIO}×; ` +
      `on ${availableParallelism()} cores the second node adds no CPU, it shares them with the first and with Postgres)`,
  );
  crossNodeDelivery();
  await takeoverAfterKill(await database.fresh());
  if (options.profile || ratio(setups[2]) < TARGET_RATIO) {
    await profile(setups[0]);
    await profile(setups[2], twoNodesUrl);
  }
}
