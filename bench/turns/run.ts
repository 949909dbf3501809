/**
 * Engine-only turn throughput (no HTTP): SessionRuntime with the scripted
 * model at zero latency. Run: npx tsx bench/turns/run.ts [turns=300]
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openAgent } from "../../server/host/open-agent.ts";

const count = Number(process.argv[2] ?? 300);
const dir = path.resolve(import.meta.dirname, "../../bot-examples/pr-approver");
const opened = await openAgent(dir, {
  stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-bench-turns-")),
  env: { BDK_MODEL: "scripted" },
});
const principal = { type: "user" as const, id: "local" };

const cpuBefore = process.cpuUsage();
const sequential: number[] = [];
for (let i = 0; i < count; i++) {
  const started = performance.now();
  await (await opened.runtime.startSession({ message: "hello", principal })).done;
  sequential.push(performance.now() - started);
}
const cpu = process.cpuUsage(cpuBefore);
sequential.sort((a, b) => a - b);
console.log(`CPU time per turn (user+system, independent of machine load): ${((cpu.user + cpu.system) / 1000 / count).toFixed(2)} ms`);
console.log(
  `sequential turns (in-process): p50 ${sequential[Math.floor(count / 2)].toFixed(2)} ms, p99 ${sequential[Math.floor(count * 0.99)].toFixed(2)} ms`,
);

const started = performance.now();
await Promise.all(Array.from({ length: 500 }, async () => (await opened.runtime.startSession({ message: "hello", principal })).done));
const seconds = (performance.now() - started) / 1000;
console.log(`500 concurrent turns (in-process): ${(500 / seconds).toFixed(1)} turns/s`);
await opened.close();
