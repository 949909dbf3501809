/**
 * BDK beside its peers, one workload, interleaved rounds (never in CI: it
 * installs packages and takes minutes). Each peer is installed at an exact
 * version into bench/.work/peers/<peer> and runs on Node 24 (the npm
 * registry's `node-<os>-<arch>` package, the version scripts/node24.sh
 * uses) with its own mock model at zero latency; BDK runs `bdk serve` of
 * bot-examples/pr-approver with its scripted model on the Node running this
 * script. Per round and peer, from a cold process:
 *
 * - cold start: spawn → first 200 on the peer's info route
 * - idle RSS two seconds later
 * - sequential turn p50 (one new conversation per turn, read to its end)
 * - 500 conversations at concurrency 50, each with a follower reading it to
 *   its end: turns/s and p99 of a turn
 * - RSS after that load
 *
 * and then the medians over the rounds and BDK ÷ peer for each figure.
 *
 *   npx tsx bench/peers/run.ts [--rounds 3] [--conversations 500] [--concurrency 50]
 *     [--peers bdk,mastra,mastra-memory,eve,eve-nitro]
 *
 * Peers: Mastra (`@mastra/core` 1.71.0 on its Hono server adapter, its
 * MockLanguageModelV2) twice: "mastra", stateless, and "mastra-memory", with
 * its Memory on LibSQLStore, a thread per conversation read back once the
 * answer has streamed. The ≥3× target is judged against mastra-memory, since
 * BDK's conversations are durable and continuable; the stateless figure is
 * printed beside it. And eve 0.80.1 (the agent in bench/peers/eve-agent
 * with eve's `mockModel`, compiled once per run by `eve build`), served both
 * by `eve start` ("eve": its CLI, which serves the Nitro output from a child
 * process) and by that Nitro output alone ("eve-nitro").
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, get, request } from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { percentile } from "../http/workloads.ts";

const KIT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const WORK = path.join(KIT, "bench", ".work", "peers");

const PEER_NAMES = ["bdk", "mastra", "mastra-memory", "eve", "eve-nitro"];
const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    conversations: { type: "string", default: "500" },
    concurrency: { type: "string", default: "50" },
    peers: { type: "string", default: PEER_NAMES.join(",") },
  },
});
const ROUNDS = Number(args.rounds);
const CONVERSATIONS = Number(args.conversations);
const CONCURRENCY = Number(args.concurrency);
const SELECTED = args.peers.split(",");
const unknownPeer = SELECTED.find((name) => !PEER_NAMES.includes(name));
if (unknownPeer !== undefined) throw new Error(`--peers: no peer named ${unknownPeer} (peers: ${PEER_NAMES.join(", ")})`);
const SEQUENTIAL = 100;

/** What each peer installs, exactly. */
const PEER_PACKAGES: Record<string, string[]> = {
  // @mastra/memory and @mastra/libsql (peer dependency @mastra/core >=1.4.1 and >=1.68.0) serve mastra-memory only.
  mastra: ["@mastra/core@1.71.0", "@mastra/hono@1.7.9", "hono@4.13.19", "@hono/node-server@1.19.19", "@mastra/memory@1.31.0", "@mastra/libsql@1.23.1"],
  // eve's agents import `ai` (its peer dependency) and `zod`; pinned at the versions eve 0.80.1 resolved to.
  eve: ["eve@0.80.1", "ai@7.0.173", "zod@4.6.7"],
};

/** `node`: the peers' Node, on npm's PATH so that its engine checks see the version the peer runs on. */
function install(peer: string, node: string): string {
  const dir = path.join(WORK, peer);
  const marker = path.join(dir, "installed.json");
  const wanted = JSON.stringify(PEER_PACKAGES[peer]);
  if (existsSync(marker) && readFileSync(marker, "utf8") === wanted) return dir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `bdk-peer-${peer}`, private: true, type: "module" }));
  console.log(`installing ${PEER_PACKAGES[peer]!.join(" ")} into ${path.relative(KIT, dir)}`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--save-exact", ...PEER_PACKAGES[peer]!], {
    cwd: dir,
    stdio: "inherit",
    env: { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` },
  });
  writeFileSync(marker, wanted);
  return dir;
}

/** Node 24 from the npm registry's binary package (scripts/node-binary.sh), the version scripts/node24.sh pins. */
function node24(): string {
  const version = /^NODE24_VERSION=(\S+)$/m.exec(readFileSync(path.join(KIT, "scripts", "node24.sh"), "utf8"))?.[1];
  if (!version) throw new Error("scripts/node24.sh pins no NODE24_VERSION");
  return execFileSync("bash", [path.join(KIT, "scripts", "node-binary.sh"), version], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

interface Peer {
  name: string;
  /** Before the clock of a cold start runs: empty the peer's store. */
  reset?(): void;
  start(port: number): ChildProcess;
  /** The route whose first 200 ends the cold start. */
  ready: string;
  /** One turn of a new conversation, read to its end (BDK and eve: the session's stream until turn.completed; Mastra: the streamed answer). */
  turn(url: string, agent: Agent): Promise<void>;
}

function readBody(target: string, method: "GET" | "POST", agent: Agent, body?: unknown, until?: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(target, { method, agent, headers: payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {} }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
        if (until?.(text)) {
          response.destroy();
          resolve(text);
        }
      });
      response.on("end", () => {
        if (response.statusCode !== 200 && response.statusCode !== 201 && response.statusCode !== 202) reject(new Error(`${target}: ${response.statusCode} ${text.slice(0, 200)}`));
        else if (until) reject(new Error(`${target}: the stream ended before the turn did: ${text.slice(-200)}`));
        else resolve(text);
      });
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** BDK and eve share the shape of a turn: create the session with its first message, then read its stream until `turn.completed`. */
async function sessionTurn(api: string, agent: Agent): Promise<void> {
  const created = JSON.parse(await readBody(`${api}/session`, "POST", agent, { message: "hello" })) as { sessionId: string };
  await readBody(`${api}/session/${created.sessionId}/stream`, "GET", agent, undefined, (text) => text.includes('"turn.completed"'));
}

function bdkPeer(): Peer {
  return {
    name: "bdk",
    ready: "/v1/info",
    start: (port) =>
      spawn(process.execPath, [path.join(KIT, "bin", "bdk.mjs"), "serve", "--dir", path.join(KIT, "bot-examples", "pr-approver"), "--port", String(port), "--state-root", mkdtempSync(path.join(os.tmpdir(), "bdk-peers-state-"))], {
        cwd: KIT,
        env: { ...process.env, BDK_MODEL: "scripted", NO_COLOR: "1" },
        stdio: "ignore",
      }),
    turn: (url, agent) => sessionTurn(`${url}/v1`, agent),
  };
}

function mastraPeers(node: string, dir: string): Peer[] {
  copyFileSync(path.join(KIT, "bench", "peers", "mastra-server.mjs"), path.join(dir, "mastra-server.mjs"));
  const store = path.join(dir, "memory.db");
  let conversation = 0;
  return [
    {
      name: "mastra",
      ready: "/api/agents",
      start: (port) => spawn(node, ["mastra-server.mjs", String(port)], { cwd: dir, stdio: "ignore" }),
      async turn(url, agent) {
        await readBody(`${url}/api/agents/bench/stream`, "POST", agent, { messages: [{ role: "user", content: "hello" }] });
      },
    },
    {
      name: "mastra-memory",
      ready: "/api/agents",
      // An empty store per start, as BDK gets a fresh state root (LibSQL keeps a -wal and -shm beside the file).
      reset: () => {
        for (const suffix of ["", "-wal", "-shm"]) rmSync(`${store}${suffix}`, { force: true });
      },
      start: (port) => spawn(node, ["mastra-server.mjs", String(port), store], { cwd: dir, stdio: "ignore" }),
      // Each conversation a new thread; the follower's part is a read of the thread's stored messages once the
      // answer has streamed (Mastra's /observe replays a run only for a durable agent's pubsub, not a thread).
      async turn(url, agent) {
        const thread = `bench-${process.pid}-${++conversation}`;
        await readBody(`${url}/api/agents/bench/stream`, "POST", agent, { messages: [{ role: "user", content: "hello" }], memory: { thread, resource: thread } });
        const stored = JSON.parse(await readBody(`${url}/api/memory/threads/${thread}/messages?agentId=bench&resourceId=${thread}`, "GET", agent)) as { total: number };
        if (stored.total !== 2) throw new Error(`mastra-memory: thread ${thread} holds ${stored.total} messages, not the question and its answer`);
      },
    },
  ];
}

/**
 * The eve peers: bench/peers/eve-agent copied into eve's install and compiled
 * once per run by `eve build`, then served two ways: `eve start` (what eve's
 * self-hosting guide runs: its CLI stays resident and serves the Nitro output
 * from a child process) and that Nitro output alone (`node
 * .output/server/index.mjs`, with the environment `eve start` gives it).
 */
function evePeers(node: string, dir: string): Peer[] {
  const agentDir = path.join(dir, "agent");
  rmSync(agentDir, { recursive: true, force: true });
  cpSync(path.join(KIT, "bench", "peers", "eve-agent", "agent"), agentDir, { recursive: true });
  const cli = path.join(dir, "node_modules", "eve", "bin", "eve.js");
  // Telemetry off: the bench talks to nothing but the peer on 127.0.0.1.
  const env = { ...process.env, EVE_TELEMETRY_DISABLED: "1", PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` };
  console.log(`building ${path.relative(KIT, agentDir)} with eve build`);
  // No sandbox prepared: the mock model calls no tool, so no session opens one, and eve's default
  // sandbox needs Docker, microsandbox or just-bash, none of which the bench installs.
  execFileSync(node, [cli, "build", "--skip-sandbox-prewarm"], { cwd: dir, env, stdio: ["ignore", "ignore", "inherit"] });
  const served = (name: string, command: (port: number) => { args: string[]; env: NodeJS.ProcessEnv }): Peer => ({
    name,
    ready: "/eve/v1/info",
    // An empty store per start, as BDK gets a fresh state root: eve's local Workflow world keeps every session there
    // (a loaded round leaves some 11,000 JSON files there, and removing them is no part of a start).
    reset: () => rmSync(path.join(dir, ".eve", ".workflow-data"), { recursive: true, force: true }),
    start(port) {
      const { args, env: processEnv } = command(port);
      return spawn(node, args, { cwd: dir, env: processEnv, stdio: "ignore" });
    },
    turn: (url, agent) => sessionTurn(`${url}/eve/v1`, agent),
  });
  return [
    served("eve", (port) => ({ args: [cli, "start", "--host", "127.0.0.1", "--port", String(port)], env })),
    served("eve-nitro", (port) => ({
      args: [path.join(dir, ".output", "server", "index.mjs")],
      env: { ...env, HOST: "127.0.0.1", PORT: String(port), NITRO_HOST: "127.0.0.1", NITRO_PORT: String(port) },
    })),
  ];
}

/** A file of /proc/<pid>, or undefined once the process is gone (a short-lived child may end between two reads). */
function procFile(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ESRCH") return undefined;
    throw error;
  }
}

/** Running: neither gone nor a zombie (a server whose parent died first may wait for a reaper that never comes). */
function alive(pid: number): boolean {
  const stat = procFile(pid, "stat");
  return stat !== undefined && stat[stat.lastIndexOf(")") + 2] !== "Z";
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(procFile(pid, "status") ?? "")?.[1] ?? 0) / 1024;

/** The running processes among a process and its descendants (`eve start` serves from a child process of its CLI), parents first. */
function processTree(pid: number): number[] {
  if (!alive(pid)) return [];
  const tasks = existsSync(`/proc/${pid}/task`) ? readdirSync(`/proc/${pid}/task`) : [];
  const children = tasks.flatMap((task) => (procFile(pid, `task/${task}/children`) ?? "").split(" ").filter(Boolean).map(Number));
  return [pid, ...children.flatMap(processTree)];
}

function ok(target: string): Promise<boolean> {
  return new Promise((resolve) => {
    get(target, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    }).on("error", () => resolve(false));
  });
}

interface Figures {
  coldMs: number;
  /** Of the process tree the peer's command started. */
  idleRssMb: number;
  /** Idle RSS of each process of that tree, parents first. */
  idleRssEachMb: number[];
  turnP50Ms: number;
  turnsPerSecond: number;
  loadP99Ms: number;
  loadedRssMb: number;
}

async function measure(peer: Peer, port: number): Promise<Figures> {
  const url = `http://127.0.0.1:${port}`;
  peer.reset?.();
  const started = performance.now();
  const child = peer.start(port);
  try {
    while (!(await ok(`${url}${peer.ready}`))) {
      if (child.exitCode !== null) throw new Error(`${peer.name} exited with ${child.exitCode} before it answered`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const coldMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idleRssEachMb = processTree(child.pid!).map(rssMb);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2 });
    const sequential: number[] = [];
    for (let i = 0; i < SEQUENTIAL + 10; i++) {
      const at = performance.now();
      await peer.turn(url, agent);
      if (i >= 10) sequential.push(performance.now() - at);
    }
    const turns: number[] = [];
    let next = 0;
    const loadStarted = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < CONVERSATIONS) {
          next++;
          const at = performance.now();
          await peer.turn(url, agent);
          turns.push(performance.now() - at);
        }
      }),
    );
    const turnsPerSecond = CONVERSATIONS / ((performance.now() - loadStarted) / 1000);
    agent.destroy();
    const loadedRssMb = processTree(child.pid!).map(rssMb).reduce((sum, mb) => sum + mb, 0);
    return { coldMs, idleRssMb: idleRssEachMb.reduce((sum, mb) => sum + mb, 0), idleRssEachMb, turnP50Ms: percentile(sequential, 50), turnsPerSecond, loadP99Ms: percentile(turns, 99), loadedRssMb };
  } finally {
    // Every process of the tree, so that the port is free for the next peer's round even if a parent does not pass the signal on.
    const tree = child.exitCode === null ? processTree(child.pid!) : [];
    for (const pid of tree) {
      try {
        process.kill(pid, "SIGTERM");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
      }
    }
    while (tree.some(alive)) await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const FIGURES: { key: Exclude<keyof Figures, "idleRssEachMb">; label: string; unit: string }[] = [
  { key: "coldMs", label: "cold start to first 200", unit: "ms" },
  { key: "idleRssMb", label: "idle RSS (process tree)", unit: "MB" },
  { key: "turnP50Ms", label: "sequential turn p50", unit: "ms" },
  { key: "turnsPerSecond", label: `${CONVERSATIONS} conversations at concurrency ${CONCURRENCY}`, unit: "turns/s" },
  { key: "loadP99Ms", label: "turn p99 under that load", unit: "ms" },
  { key: "loadedRssMb", label: "RSS after the load (process tree)", unit: "MB" },
];

const node = node24();
const wants = (prefix: string) => SELECTED.some((name) => name.startsWith(prefix));
const peers = [
  bdkPeer(),
  ...(wants("mastra") ? mastraPeers(node, install("mastra", node)) : []),
  ...(wants("eve") ? evePeers(node, install("eve", node)) : []),
].filter((peer) => SELECTED.includes(peer.name));
console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((n) => n.toFixed(1)).join(" ")}; BDK on Node ${process.version}, peers on ${execFileSync(node, ["--version"], { encoding: "utf8" }).trim()}`);
const results = new Map<string, Figures[]>(peers.map((peer) => [peer.name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [index, peer] of peers.entries()) {
    const figures = await measure(peer, 4700 + index);
    results.get(peer.name)!.push(figures);
    const eachProcess = figures.idleRssEachMb.length > 1 ? ` (idle RSS by process, parent first: ${figures.idleRssEachMb.map((mb) => mb.toFixed(1)).join(" + ")} MB)` : "";
    console.log(`round ${round + 1} ${peer.name}: ${FIGURES.map(({ key, unit }) => `${key} ${figures[key].toFixed(1)} ${unit}`).join(", ")}${eachProcess}`);
  }
}
const medianOf = (name: string, key: (typeof FIGURES)[number]["key"]) => percentile(results.get(name)!.map((figures) => figures[key]), 50);
console.log(`\nmedians of ${ROUNDS} rounds | ${peers.map((peer) => peer.name).join(" | ")} | ${peers.slice(1).map((peer) => `bdk ÷ ${peer.name}`).join(" | ")}`);
for (const { key, label, unit } of FIGURES) {
  const values = peers.map((peer) => medianOf(peer.name, key));
  console.log(`${label} (${unit}) | ${values.map((value) => value.toFixed(1)).join(" | ")} | ${values.slice(1).map((value) => (values[0]! / value).toFixed(2)).join(" | ")}`);
}
