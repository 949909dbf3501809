/**
 * What OpenTelemetry costs: the turn-overhead and 500-session workloads of
 * bench/http, and the engine's CPU per turn (bench/turns), with tracing off
 * and on in the same run. "On" exports spans and metrics over OTLP/HTTP
 * (protobuf, the default) to a real receiver on loopback that answers 200.
 * The two servers run side by side and the workloads alternate between them,
 * so a noisy neighbour hits both.
 * Run: npx tsx bench/otel/run.ts [--short]
 */
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openAgent } from "../../server/host/open-agent.ts";
import { KIT_DIR, startServer } from "../../test/support/bdk-server.ts";
import { concurrentRound, fmt, median, turnOverhead } from "../http/workloads.ts";

const SHORT = process.argv.includes("--short");
const DIR = path.join(KIT_DIR, "bot-examples", "pr-approver");
const ROUNDS = SHORT ? 1 : 3;
/** The overhead budget: what tracing may add to a turn's latency and take from throughput. */
const BUDGET_PERCENT = 10;

const receiver = await startReceiver();
const otelEnv = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: "200" };

await inProcess();
await overHttp();
console.log(`receiver: ${receiver.requests()} OTLP requests, ${fmt(receiver.bytes() / 1024)} KiB`);
await receiver.close();

/**
 * bench/turns: CPU per turn, which depends little on the machine's load. Both
 * agents are open at once and take turns in alternating chunks, so warm-up
 * and garbage collection fall on both alike.
 */
async function inProcess() {
  const chunks = SHORT ? 4 : 10;
  const perChunk = 50;
  const principal = { type: "user" as const, id: "local" };
  const agents = {
    off: await openAgent(DIR, { stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-bench-otel-")), env: { BDK_MODEL: "scripted" } }),
    on: await openAgent(DIR, { stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-bench-otel-")), env: { BDK_MODEL: "scripted", ...otelEnv } }),
  };
  const cpu = { off: 0, on: 0 };
  const latency = { off: [] as number[], on: [] as number[] };
  for (let chunk = -1; chunk < chunks; chunk++) {
    for (const mode of ["off", "on"] as const) {
      const before = process.cpuUsage();
      for (let i = 0; i < perChunk; i++) {
        const started = performance.now();
        await (await agents[mode].runtime.startSession({ message: "hello", principal })).done;
        // The first chunk warms up and is not counted.
        if (chunk >= 0) latency[mode].push(performance.now() - started);
      }
      const used = process.cpuUsage(before);
      if (chunk >= 0) cpu[mode] += (used.user + used.system) / 1000;
    }
  }
  await Promise.all([agents.off.close(), agents.on.close()]);
  const count = chunks * perChunk;
  const perTurn = { off: cpu.off / count, on: cpu.on / count };
  const p50 = { off: median(latency.off), on: median(latency.on) };
  console.log(
    `in-process turn (n=${count} each, alternating): CPU ${perTurn.off.toFixed(2)} ms off, ${perTurn.on.toFixed(2)} ms on (${delta(perTurn.on, perTurn.off)}); ` +
      `p50 ${p50.off.toFixed(2)} ms off, ${p50.on.toFixed(2)} ms on (${delta(p50.on, p50.off)})`,
  );
}

async function overHttp() {
  const off = await startServer({ dir: DIR });
  const on = await startServer({ dir: DIR, env: otelEnv });
  try {
    const samples = SHORT ? 60 : 200;
    const latency = { off: [] as number[], on: [] as number[] };
    const throughput = { off: [] as number[], on: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      latency.off.push((await turnOverhead(off.url, Math.round(samples / ROUNDS), 10)).p50);
      latency.on.push((await turnOverhead(on.url, Math.round(samples / ROUNDS), 10)).p50);
      throughput.off.push(await concurrentRound(off.url, 500, `bench-otel-off-${round}`));
      throughput.on.push(await concurrentRound(on.url, 500, `bench-otel-on-${round}`));
    }
    const p50 = { off: median(latency.off), on: median(latency.on) };
    const rate = { off: median(throughput.off), on: median(throughput.on) };
    console.log(
      `turn overhead over HTTP, p50 (n=${samples}, median of ${ROUNDS} round${ROUNDS === 1 ? "" : "s"}): ${fmt(p50.off)} ms off, ${fmt(p50.on)} ms on (${delta(p50.on, p50.off)}; budget +${BUDGET_PERCENT}%)`,
    );
    console.log(
      `500 concurrent sessions (median of ${ROUNDS}): ${fmt(rate.off)} turns/s off, ${fmt(rate.on)} turns/s on (${delta(rate.on, rate.off)}; budget -${BUDGET_PERCENT}%)`,
    );
  } finally {
    await Promise.all([off.stop(), on.stop()]);
  }
}

function delta(value: number, base: number): string {
  const percent = ((value - base) / base) * 100;
  return `${percent >= 0 ? "+" : ""}${percent.toFixed(1)}%`;
}

/** A collector's OTLP/HTTP port as far as the exporter can tell: reads each request and answers 200. */
async function startReceiver() {
  let requests = 0;
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on("data", (chunk: Buffer) => (bytes += chunk.length));
    req.on("end", () => {
      requests++;
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    bytes: () => bytes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
