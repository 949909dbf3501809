/**
 * `bdk serve` of bot-examples/pr-approver at rest, on a chosen Node binary:
 * cold start to the first 200 on /v1/info (an empty state root and one
 * holding 5,000 sessions, interleaved), idle resident memory 10 s after
 * start and 40 s after (once the collection after the start-up has run) and
 * where it goes (V8 heap, external, anonymous vs file-backed pages), then
 * 500 turns (concurrency 50) and the resident memory right after and a
 * minute later, against the same server's idle figure before them.
 *
 *   npx tsx bench/http/at-rest.ts [--node <path>] [--runs 3] [--turns 500]
 *   BDK_BENCH_NODE=$(bash scripts/node-binary.sh 22.23.5) npx tsx bench/http/at-rest.ts
 *
 * Another Node than this one runs from a tree whose better-sqlite3 is built
 * for it (bench/support/kit-on-node.ts). Wall times carry the load average.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent } from "node:http";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { KIT_DIR, type RunningServer, startServer } from "../../test/support/bdk-server.ts";
import { fullStateRoot } from "../support/full-state-root.ts";
import { benchNode, kitOnNode } from "../support/kit-on-node.ts";
import { fmt, followWithNodeHttp, median, postJson } from "./workloads.ts";

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const RUNS = option("--runs", 3);
const TURNS = option("--turns", 500);
/** How long after the first /v1/info answer memory counts as idle: Next.js boots a second after listen and takes a few. */
const SETTLE_MS = 10_000;
/** By then the collection after the start-up burst has run (server/host/idle-trim.ts: 30–37.5 s after the last request). */
const TRIMMED_MS = 40_000;
const AFTER_LOAD_MS = 60_000;

const kit = kitOnNode(benchNode());
const DIR = path.join(kit.kitDir, "bot-examples", "pr-approver");
const PROBE = fileURLToPath(new URL("./heap-probe.mjs", import.meta.url));
const load = () => loadavg().map((n) => n.toFixed(2)).join(" ");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
console.log(`Node ${kit.version} (${kit.node}); load average ${load()}`);

interface Status {
  rss: number;
  anon: number;
  file: number;
}
/** Resident memory as the kernel counts it, MB: all of it, anonymous (heaps, malloc) and file-backed (the binary, shared libraries). */
function status(pid: number): Status {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? 0) / 1024;
  return { rss: kb("VmRSS"), anon: kb("RssAnon"), file: kb("RssFile") };
}

/** process.memoryUsage() inside the server after a full collection (heap-probe.mjs). */
async function usage(pid: number, file: string): Promise<NodeJS.MemoryUsage> {
  rmSync(file, { force: true });
  process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + 30_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`the server (pid ${pid}) wrote no memory reading to ${file} within 30 s`);
    await sleep(50);
  }
  return JSON.parse(readFileSync(file, "utf8")) as NodeJS.MemoryUsage;
}

async function start(stateRoot: string, probeFile?: string): Promise<{ server: RunningServer; ms: number }> {
  const started = performance.now();
  const env = probeFile ? { NODE_OPTIONS: `--import=${PROBE}`, BDK_HEAP_PROBE_FILE: probeFile } : undefined;
  const server = await startServer({ dir: DIR, stateRoot, node: kit.node, kitDir: kit.kitDir, env });
  for (;;) {
    const response = await fetch(`${server.url}/v1/info`).catch(() => undefined);
    if (response?.status === 200) break;
    await sleep(20);
  }
  return { server, ms: performance.now() - started };
}

const mb = (bytes: number) => fmt(bytes / 2 ** 20);
const describe = (heap: NodeJS.MemoryUsage) =>
  `after a full GC: RSS ${mb(heap.rss)} MB = V8 heap ${mb(heap.heapTotal)} MB (live ${mb(heap.heapUsed)}) + ` +
  `external ${mb(heap.external)} MB (array buffers ${mb(heap.arrayBuffers)}) + code, stacks, malloc and the binary ${mb(heap.rss - heap.heapTotal - heap.external)} MB`;
const freshRoot = () => mkdtempSync(path.join(tmpdir(), "bdk-bench-state-"));

// Cold starts, interleaved so a noisy neighbour costs both series alike; idle RSS from each empty start.
const full = fullStateRoot(5000);
const empty: number[] = [];
const restart: number[] = [];
const idle: Status[] = [];
const idleTrimmed: Status[] = [];
const probeFile = path.join(KIT_DIR, "bench", ".work", `at-rest-${process.pid}.json`);
mkdirSync(path.dirname(probeFile), { recursive: true });
let breakdown = "";
for (let run = 0; run < RUNS; run++) {
  // The first start also says where its memory goes, read after its idle RSS (the probe's collection lowers it).
  const a = await start(freshRoot(), run === 0 ? probeFile : undefined);
  empty.push(a.ms);
  await sleep(SETTLE_MS);
  idle.push(status(a.server.child.pid!));
  if (run === 0) {
    const heap = await usage(a.server.child.pid!, probeFile);
    breakdown = `idle, ${describe(heap)}`;
    rmSync(probeFile, { force: true });
  }
  await sleep(TRIMMED_MS - SETTLE_MS);
  idleTrimmed.push(status(a.server.child.pid!));
  await a.server.stop();
  const b = await start(full);
  restart.push(b.ms);
  await b.server.stop();
}
rmSync(full, { recursive: true, force: true });
console.log(
  `cold start to first 200 on /v1/info (${RUNS} interleaved rounds): empty state root ${empty.map(fmt).join(", ")} ms, median ${fmt(median(empty))} ms; ` +
    `5,000 sessions stored ${restart.map(fmt).join(", ")} ms, median ${fmt(median(restart))} ms (load average ${load()})`,
);
const idleRss = idle.map((s) => s.rss);
console.log(
  `idle RSS ${fmt(SETTLE_MS / 1000)} s after start: ${idleRss.map(fmt).join(", ")} MB, median ${fmt(median(idleRss))} MB ` +
    `(anonymous ${fmt(median(idle.map((s) => s.anon)))} MB, file-backed ${fmt(median(idle.map((s) => s.file)))} MB)`,
);
const trimmedRss = idleTrimmed.map((s) => s.rss);
console.log(
  `idle RSS ${fmt(TRIMMED_MS / 1000)} s after start (the start-up trimmed): ${trimmedRss.map(fmt).join(", ")} MB, median ${fmt(median(trimmedRss))} MB ` +
    `(anonymous ${fmt(median(idleTrimmed.map((s) => s.anon)))} MB, file-backed ${fmt(median(idleTrimmed.map((s) => s.file)))} MB) (target < 150)`,
);

console.log(breakdown);

// What a load leaves behind, against the same server's idle RSS before it.
const { server } = await start(freshRoot(), probeFile);
try {
  await sleep(TRIMMED_MS);
  const rested = status(server.child.pid!).rss;
  const agent = new Agent({ keepAlive: true, maxSockets: 50 });
  let done = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (done < TURNS) {
        done++;
        const created = await postJson<{ sessionId: string }>(agent, `${server.url}/v1/session`, { message: "hello", title: "bench-at-rest" });
        await followWithNodeHttp(`${server.url}/v1/session/${created.sessionId}/stream`, (event) => event.type === "session.waiting");
      }
    }),
  );
  agent.destroy();
  const right = status(server.child.pid!).rss;
  await sleep(AFTER_LOAD_MS);
  const later = status(server.child.pid!).rss;
  console.log(
    `${TURNS} turns (concurrency 50): RSS before ${fmt(rested)} MB, right after ${fmt(right)} MB, a minute later ${fmt(later)} MB ` +
      `(${later >= rested ? "+" : ""}${fmt(((later - rested) / rested) * 100)} % of idle; target within 20 %); load average ${load()}`,
  );
  console.log(`  a minute after the load, ${describe(await usage(server.child.pid!, probeFile))}`);
} finally {
  await server.stop();
  rmSync(probeFile, { force: true });
}
