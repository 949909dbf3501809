/**
 * HTTP benchmarks of `bdk serve` with the scripted model at zero latency.
 * Run: npx tsx bench/http/run.ts [--short] [memory | load [--cpu-prof FILE]]
 * (prints one line per figure; --short, for CI: fewer samples, one round, a
 * smaller replay, fewer sessions for the memory figure; memory: only the
 * memory figure; load: only the followed load, on a server of its own,
 * its CPU profile during the load written to FILE with --cpu-prof)
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { Agent } from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { openStore } from "../../server/store/index.ts";
import { KIT_DIR, readNdjson, startServer } from "../../test/support/bdk-server.ts";
import { concurrentRound, cpuMsOf, type Event, fmt, followedConversations, followWithNodeHttp, median, percentile, postJson, turnOverhead } from "./workloads.ts";

const DIR = path.join(KIT_DIR, "bot-examples", "pr-approver");
const SHORT = process.argv.includes("--short");

async function coldStart() {
  const started = performance.now();
  const server = await startServer({ dir: DIR });
  for (;;) {
    const response = await fetch(`${server.url}/v1/info`).catch(() => undefined);
    if (response?.status === 200) break;
  }
  const ms = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  console.log(`cold start to first 200 on /v1/info: ${fmt(ms)} ms (target < 1000); idle RSS ${fmt(rss)} MB (target < 150)`);
  return server;
}

async function reportTurnOverhead(url: string) {
  const { p50, p99, samples } = await turnOverhead(url, SHORT ? 60 : 200, SHORT ? 10 : 20);
  console.log(`turn overhead (POST /v1/session → turn.completed on the stream, n=${samples}): p50 ${fmt(p50)} ms (target < 15), p99 ${fmt(p99)} ms (target < 50)`);
}

/**
 * What one turn costs the server: `turns` sequential sessions, each created
 * and followed to its turn.completed (node:http, as a proxy would read),
 * with the CPU the `bdk serve` child used across them (its /proc stat, the
 * server being the spawned process itself) divided by `turns`.
 */
async function serverCpuPerFollowedTurn(url: string, pid: number, turns = SHORT ? 100 : 500) {
  const agent = new Agent({ keepAlive: true });
  const before = cpuMsOf(pid);
  for (let i = 0; i < turns; i++) {
    const created = await postJson<{ sessionId: string }>(agent, `${url}/v1/session`, { message: "hello", title: "bench-cpu" });
    await followWithNodeHttp(`${url}/v1/session/${created.sessionId}/stream`, (event) => event.type === "turn.completed");
  }
  const perTurn = (cpuMsOf(pid) - before) / turns;
  agent.destroy();
  console.log(`server CPU per followed turn (POST /v1/session, stream to turn.completed, n=${turns}): ${perTurn.toFixed(2)} ms`);
}

/** Several rounds, each with its own sessions: one round on a shared VM can catch a noisy neighbour. */
async function concurrentSessions(url: string, count = 500, rounds = SHORT ? 1 : 3) {
  const rates: number[] = [];
  for (let round = 0; round < rounds; round++) rates.push(await concurrentRound(url, count, `bench-concurrent-${round}`));
  console.log(
    `${count} concurrent sessions, one turn each, ${rounds} round${rounds === 1 ? "" : "s"}: ${rates.map(fmt).join(", ")} turns/s; median ${fmt(median(rates))} turns/s (target ≥ 200)`,
  );
}

/**
 * The load of issue 18 and bench/peers: 500 conversations at concurrency 50,
 * a follower on each; with the server's CPU per turn, which other work on
 * the shared cores moves less than it moves turns/s.
 */
async function followedLoad(url: string, pid: number, count = SHORT ? 200 : 500, concurrency = 50) {
  const before = cpuMsOf(pid);
  const { turnsPerSecond, p99 } = await followedConversations(url, count, concurrency, "bench-followed");
  const perTurn = (cpuMsOf(pid) - before) / count;
  console.log(
    `${count} conversations at concurrency ${concurrency}, a follower on each (load average ${os.loadavg().map(fmt).join(" ")}): ${fmt(turnsPerSecond)} turns/s, p99 ${fmt(p99)} ms, server CPU ${perTurn.toFixed(2)} ms per turn`,
  );
}

async function fanOut(url: string, followers = 100) {
  const created = (await (
    await fetch(`${url}/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "Inspect https://github.com/acme/checkout/pull/42" }),
    })
  ).json()) as { sessionId: string; continuationToken: string };
  await readNdjson<Event>(await fetch(`${url}/v1/session/${created.sessionId}/stream`), (e) => e.type === "session.waiting");
  const { session } = (await (await fetch(`${url}/v1/session/${created.sessionId}`)).json()) as {
    session: { lastIndex: number };
  };
  // Followers join before the next turn and measure only the events it produces. They read
  // with node:http, as a proxy or curl would: undici's fetch streams cost the client more
  // than the server spends delivering, and client and server share these two cores.
  const delays: number[] = [];
  const reading = Array.from({ length: followers }, () =>
    followWithNodeHttp(`${url}/v1/session/${created.sessionId}/stream?startIndex=${session.lastIndex + 1}`, (event) => {
      delays.push(Date.now() - Date.parse(event.at));
      return event.type === "turn.completed";
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  await fetch(`${url}/v1/session/${created.sessionId}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message: "Inspect https://github.com/acme/checkout/pull/42", continuationToken: created.continuationToken }),
  });
  await Promise.all(reading);
  console.log(`fan-out: ${followers} followers, ${delays.length} deliveries: delivery delay p50 ${fmt(percentile(delays, 50))} ms, p99 ${fmt(percentile(delays, 99))} ms (target p99 < 50)`);
}

/**
 * What the server retains: the lowest of three readings of RSS and live heap
 * (each after a full GC, through bench/http/heap-probe.mjs). RSS also holds
 * freed memory the allocator has not handed back yet, which comes and goes.
 */
async function retainedMemory(pid: number, file: string): Promise<{ rss: number; heap: number }> {
  const readings = [];
  for (let i = 0; i < 3; i++) readings.push(await probeMemory(pid, file));
  return { rss: Math.min(...readings.map((r) => r.rss)), heap: Math.min(...readings.map((r) => r.heap)) };
}

async function probeMemory(pid: number, file: string): Promise<{ rss: number; heap: number }> {
  mkdirSync(path.dirname(file), { recursive: true });
  rmSync(file, { force: true });
  process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + 30_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`the server (pid ${pid}) wrote no memory reading to ${file} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const usage = JSON.parse(readFileSync(file, "utf8")) as NodeJS.MemoryUsage;
  return { rss: usage.rss / 2 ** 20, heap: usage.heapUsed / 2 ** 20 };
}

/**
 * Memory per session served: 6,000 turns, each a new session followed to its
 * end over HTTP (20 at a time); RSS and live heap after 2,000 and 6,000.
 */
async function memoryPerSession(total = SHORT ? 1500 : 6000, checkpoint = SHORT ? 500 : 2000, concurrency = 20) {
  const probe = path.join(KIT_DIR, "bench", ".work", `heap-${process.pid}.json`);
  const preload = fileURLToPath(new URL("./heap-probe.mjs", import.meta.url));
  const server = await startServer({
    dir: DIR,
    env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${preload}`.trim(), BDK_HEAP_PROBE_FILE: probe },
  });
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency * 2 });
  try {
    let done = 0;
    const turn = async () => {
      const created = await postJson<{ sessionId: string }>(agent, `${server.url}/v1/session`, { message: "hello", title: "bench-memory" });
      await followWithNodeHttp(`${server.url}/v1/session/${created.sessionId}/stream`, (event) => event.type === "session.waiting");
      done++;
    };
    const runUntil = async (count: number) => {
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (done < count) await turn();
      }));
    };
    await runUntil(checkpoint);
    const first = await retainedMemory(server.child.pid!, probe);
    await runUntil(total);
    const last = await retainedMemory(server.child.pid!, probe);
    const growth = (a: number, b: number) => `${b >= a ? "+" : ""}${fmt(((b - a) / a) * 100)} %`;
    console.log(
      `memory per session served: after ${checkpoint} turns RSS ${fmt(first.rss)} MB, live heap ${fmt(first.heap)} MB; ` +
        `after ${done} turns RSS ${fmt(last.rss)} MB (${growth(first.rss, last.rss)}), live heap ${fmt(last.heap)} MB (${growth(first.heap, last.heap)}) (target: flat within 10 %)`,
    );
  } finally {
    agent.destroy();
    await server.stop();
    rmSync(probe, { force: true });
  }
}

async function replay() {
  const stateRoot = path.join(KIT_DIR, "bench", ".work", `replay-${Date.now()}`);
  const store = openStore(stateRoot);
  const sessionId = "ses_BENCHREPLAY00000000000000";
  const now = new Date().toISOString();
  store.sessions.create({
    id: sessionId, agent: "pr-approver", title: "replay", mode: "chat", status: "waiting", channel: "http",
    principal: { type: "user", id: "local" }, continuationToken: "http:bench", channelState: null, purpose: null,
    dryRun: false, botVersion: "bench", createdAt: now, updatedAt: now,
  });
  for (let batch = 0; batch < (SHORT ? 20 : 100); batch++) {
    store.events.append(
      sessionId,
      Array.from({ length: 1000 }, () => ({ type: "message.appended" as const, data: { delta: "lorem ipsum dolor " } })),
    );
  }
  store.close();
  const server = await startServer({ dir: DIR, stateRoot });
  try {
    const started = performance.now();
    const response = await fetch(`${server.url}/v1/session/${sessionId}/stream?startIndex=0&follow=false`);
    const text = await response.text();
    const ms = performance.now() - started;
    const lines = text.split("\n").filter(Boolean).length;
    console.log(`replay: ${lines} stored events streamed from startIndex=0 in ${fmt(ms)} ms = ${fmt(lines / (ms / 1000))} events/s (target ≥ 100000)`);
  } finally {
    await server.stop();
  }
}

const profileFile = process.argv.includes("--cpu-prof") ? path.resolve(process.argv[process.argv.indexOf("--cpu-prof") + 1]!) : undefined;
if (process.argv.includes("load")) {
  const probe = fileURLToPath(new URL("./cpu-probe.mjs", import.meta.url));
  const server = await startServer({
    dir: DIR,
    env: profileFile ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${probe}`.trim(), BDK_CPU_PROFILE_FILE: profileFile } : {},
  });
  try {
    // As bench/peers measures it: the web app booted (a second after the start) and the routes warm.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await followedConversations(server.url, 100, 10, "bench-warmup");
    if (profileFile) {
      rmSync(profileFile, { force: true });
      process.kill(server.child.pid!, "SIGUSR2");
    }
    await followedLoad(server.url, server.child.pid!);
    if (profileFile) {
      process.kill(server.child.pid!, "SIGUSR2");
      while (!existsSync(profileFile)) await new Promise((resolve) => setTimeout(resolve, 50));
      console.log(`CPU profile of the load: ${profileFile}`);
    }
  } finally {
    await server.stop();
  }
} else if (!process.argv.includes("memory")) {
  const server = await coldStart();
  try {
    await reportTurnOverhead(server.url);
    await serverCpuPerFollowedTurn(server.url, server.child.pid!);
    await concurrentSessions(server.url);
    await followedLoad(server.url, server.child.pid!);
    await fanOut(server.url);
  } finally {
    await server.stop();
  }
  await replay();
}
if (!process.argv.includes("load")) await memoryPerSession();
