/**
 * Start-up cost: `bdk validate` of a small project (two zod tools, the usual
 * case: no JSON Schema to compile, so ajv is never loaded), and `bdk serve` of
 * bot-examples/pr-approver from spawn until `/v1/info` answers 200 (on an empty
 * state root, and on one holding 5,000 sessions), each
 * in a fresh process, `--runs` times (default 7). Prints the median wall time
 * and the median CPU (user + system of the process and everything it
 * started, esbuild's service included; for serve that is start, one health
 * check and a SIGTERM stop). Linux with python3 (a child subreaper counts
 * the CPU of orphaned processes too). The project is written once, so jiti's cache is warm after the
 * first run, as for a developer's repeated commands.
 *
 *   npx tsx bench/startup/run.ts [--runs 7]
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { fullStateRoot } from "../support/full-state-root.ts";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const KIT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(KIT_ROOT, "bin", "bdk.mjs");
const PR_APPROVER = path.join(KIT_ROOT, "bot-examples", "pr-approver");
const runsIndex = process.argv.indexOf("--runs");
const RUNS = runsIndex === -1 ? 7 : Number(process.argv[runsIndex + 1]);

function project(): string {
  const dir = path.join(KIT_ROOT, "bench", ".work", "startup");
  mkdirSync(path.join(dir, "bot", "tools"), { recursive: true });
  writeFileSync(path.join(dir, "bot", "instructions.md"), "You help.\n");
  for (const name of ["lookup", "update"]) {
    writeFileSync(
      path.join(dir, "bot", "tools", `${name}.ts`),
      `import { defineTool } from "@cursor/bdk/tools";\nimport { z } from "zod";\nexport default defineTool({ description: "${name}", inputSchema: z.object({ id: z.string() }), async execute({ id }) { return id; } });\n`,
    );
  }
  return dir;
}

// Linux: the command runs under a child subreaper, so the CPU of every process it starts is counted,
// orphans included (esbuild's service outlives a kit that does not stop it, and bash's `times` would miss it).
const REAPER = `
import ctypes, os, resource, subprocess, sys
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print("pid", child.pid, flush=True)
child.wait()
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print("cpu", usage.ru_utime + usage.ru_stime, flush=True)
`;

/** Runs `args` (and everything it starts) to its end: wall time and CPU (user + system) of the whole tree. */
function timed(args: string[], onPid?: (pid: number) => void): Promise<{ wallMs: number; cpuMs: number }> {
  const started = performance.now();
  const child = spawn("python3", ["-c", REAPER, ...args], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, BDK_MODEL: "scripted", NO_COLOR: "1" } });
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
    const pid = /^pid (\d+)$/m.exec(out);
    if (pid && onPid) {
      onPid(Number(pid[1]));
      onPid = undefined;
    }
  });
  return new Promise((resolve) =>
    child.on("exit", () => {
      const cpu = Number(/^cpu ([\d.]+)$/m.exec(out)?.[1]);
      resolve({ wallMs: performance.now() - started, cpuMs: cpu * 1000 });
    }),
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function serveOnce(dir: string, stateRoot = mkdtempSync(path.join(tmpdir(), "bdk-bench-state-"))): Promise<{ wallMs: number; cpuMs: number }> {
  const port = await freePort();
  const started = performance.now();
  let serverPid: number | undefined;
  const result = timed([process.execPath, BIN, "serve", "--dir", dir, "--port", String(port), "--state-root", stateRoot], (pid) => (serverPid = pid));
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/v1/info`)).status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const healthyMs = performance.now() - started;
  process.kill(serverPid!, "SIGTERM");
  const { cpuMs } = await result;
  return { wallMs: healthyMs, cpuMs };
}

const dir = project();
const validate: { wallMs: number; cpuMs: number }[] = [];
for (let i = 0; i < RUNS; i++) validate.push(await timed([process.execPath, BIN, "validate", "--dir", dir]));
const serveRuns = Math.max(3, Math.ceil(RUNS / 2));
const full = fullStateRoot(5000);
const serve: { wallMs: number; cpuMs: number }[] = [];
const restart: { wallMs: number; cpuMs: number }[] = [];
// Interleaved, so a noisy neighbour costs both series alike.
for (let i = 0; i < serveRuns; i++) {
  serve.push(await serveOnce(PR_APPROVER));
  restart.push(await serveOnce(PR_APPROVER, full));
}

const line = (name: string, samples: { wallMs: number; cpuMs: number }[]) =>
  `${name.padEnd(32)} wall ${Math.round(median(samples.map((s) => s.wallMs)))} ms   cpu ${Math.round(median(samples.map((s) => s.cpuMs)))} ms   (median of ${samples.length})`;
console.log(line("bdk validate (small project)", validate));
console.log(line("bdk serve until /v1/info 200", serve));
console.log(line("  same, 5,000 sessions stored", restart));
