/**
 * Fuzzes a real `bdk serve` (the kitchen-sink example, scripted model) with
 * generated hostile HTTP inputs and prints the status counts, the 5xx
 * answers, the hangs and the error answers on /v1 that are not the JSON
 * envelope. Targets: 0 × 5xx, 0 hangs. "Closed without an answer" happens
 * when a route refuses a large body before reading it: Node closes the
 * connection with bytes unread, and the kernel resets it before the client
 * reads the answer (no lingering close in Node).
 *
 * Run: npx tsx bench/fuzz/run.ts [--count 6000] [--seed 1] [--concurrency 8]
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { KIT_DIR, startServer } from "../../test/support/bdk-server.ts";
import { type FuzzCase, generateCases } from "./cases.ts";
import { type RawAnswer, sendRaw } from "./raw-request.ts";

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "6000" },
    seed: { type: "string", default: "1" },
    concurrency: { type: "string", default: "8" },
    deadline: { type: "string", default: "20000" },
  },
});
const count = Number(values.count);
const concurrency = Number(values.concurrency);
const deadlineMs = Number(values.deadline);

const server = await startServer({ dir: path.join(KIT_DIR, "bot-examples", "kitchen-sink") });
try {
  const created = (await (
    await fetch(`${server.url}/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "hello" }),
    })
  ).json()) as { sessionId: string; continuationToken: string };
  const cases = generateCases(
    { sessionId: created.sessionId, continuationToken: created.continuationToken, toolName: "word_count" },
    count,
    Number(values.seed),
  );

  const started = performance.now();
  const results: Array<{ fuzz: FuzzCase; answer: RawAnswer }> = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < cases.length) {
        const fuzz = cases[next++];
        results.push({ fuzz, answer: await sendRaw(server.port, fuzz, deadlineMs) });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;

  const byStatus = new Map<string, number>();
  for (const { answer } of results) {
    const key = answer.hung ? "hang" : answer.status !== undefined ? String(answer.status) : "closed without an answer";
    byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
  }
  const serverErrors = results.filter(({ answer }) => (answer.status ?? 0) >= 500);
  const hangs = results.filter(({ answer }) => answer.hung);
  const notEnvelope = results.filter(
    ({ fuzz, answer }) =>
      (answer.status ?? 0) >= 400 &&
      fuzz.method !== "HEAD" &&
      /^\/v1(\/|$|\?)/.test(fuzz.target) &&
      // MCP endpoints answer in JSON-RPC, by the MCP spec.
      !/^\/v1\/mcp(\/|$)/.test(normalised(fuzz.target)) &&
      !/^\{"ok":false,"error":"[a-z_]+"/.test(answer.body),
  );
  const closed = new Map<string, number>();
  for (const { fuzz, answer } of results) if (answer.closedWithoutAnswer) closed.set(fuzz.family, (closed.get(fuzz.family) ?? 0) + 1);
  const health = await fetch(`${server.url}/health`).then((response) => response.status, () => "unreachable");
  const stacks = server.output().split("\n").filter((line) => /^\s+at .+:\d+:\d+\)?$/.test(line)).length;

  console.log(`fuzz: ${results.length} hostile inputs to bdk serve in ${seconds.toFixed(1)} s (seed ${values.seed}, ${concurrency} at a time)`);
  const families = new Map<string, number>();
  for (const { fuzz } of results) families.set(fuzz.family, (families.get(fuzz.family) ?? 0) + 1);
  console.log(`families: ${[...families].map(([name, n]) => `${name} ${n}`).join(", ")}`);
  console.log(`statuses: ${[...byStatus].sort(([a], [b]) => a.localeCompare(b)).map(([status, n]) => `${status} × ${n}`).join(", ")}`);
  console.log(`5xx: ${serverErrors.length} (target 0); hangs: ${hangs.length} (target 0); /v1 errors without the JSON envelope (MCP's JSON-RPC aside): ${notEnvelope.length}`);
  console.log(`closed without an answer, by family: ${[...closed].map(([name, n]) => `${name} ${n}`).join(", ") || "none"}`);
  console.log(`server afterwards: /health ${health}; stack-trace lines in its output: ${stacks}`);
  const closedCases = results.filter(({ answer }) => answer.closedWithoutAnswer);
  for (const [title, list] of [["5xx", serverErrors], ["hang", hangs], ["not an envelope", notEnvelope], ["closed", closedCases]] as const) {
    for (const { fuzz, answer } of list.slice(0, 12)) {
      const size = Array.isArray(fuzz.body) ? fuzz.body.reduce((sum, piece) => sum + piece.length, 0) : (fuzz.body?.length ?? 0);
      console.log(`  ${title}: ${fuzz.family} ${fuzz.method} ${fuzz.target.slice(0, 100)} (${size} bytes) → ${answer.status ?? "-"} ${answer.body.slice(0, 120).replace(/\s+/g, " ")}`);
    }
  }
} finally {
  await server.stop("SIGKILL");
}

/** The path a server routes (dot segments resolved, no query or fragment). */
function normalised(target: string): string {
  try {
    return new URL(target, "http://x").pathname;
  } catch {
    return target;
  }
}
