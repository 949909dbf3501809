/**
 * Eval runner throughput: a generated project with 200 cases (20 files of
 * 10, each one tool-calling turn with four assertions) at maxConcurrency 20
 * with the scripted model, in-process, recorded in a fresh state root.
 * Run: npx tsx bench/evals/run.ts [cases=200] [maxConcurrency=20]   (target < 10 s)
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startRun } from "../../server/evals/start-run.ts";
import { localTarget } from "../../server/evals/target.ts";
import { openAgent } from "../../server/host/open-agent.ts";
import { removeTempProjects, tempProject } from "../../server/load/testing/temp-project.ts";
import { evalConfig, SHOP_BOT } from "../../server/evals/testing/shop-project.ts";

const total = Number(process.argv[2] ?? 200);
const maxConcurrency = Number(process.argv[3] ?? 20);
const PER_FILE = 10;

const files: Record<string, string> = { ...SHOP_BOT, "evals/evals.config.ts": evalConfig(maxConcurrency) };
for (let file = 0; file * PER_FILE < total; file++) {
  const count = Math.min(PER_FILE, total - file * PER_FILE);
  files[`evals/batch-${String(file).padStart(2, "0")}.eval.ts`] = `
    import { defineEval, includes } from "@cursor/bdk/evals";
    export default defineEval({
      cases: Array.from({ length: ${count} }, (_, i) => ({
        id: "case-" + i,
        async test(t) {
          await t.send("lookup_order 'A-" + i + "'");
          t.succeeded();
          t.calledTool("lookup_order", { input: { orderId: "A-" + i } });
          t.notCalledTool("refund");
          t.check(t.reply, includes("shipped"));
        },
      })),
    });`;
}

const dir = tempProject(files);
const loadStarted = performance.now();
const opened = await openAgent(dir, { stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-bench-evals-")), model: "scripted", env: {} });
const loadMs = performance.now() - loadStarted;

const started = performance.now();
const run = await startRun({
  agent: opened.agent.name,
  evals: opened.agent.evals,
  filter: {},
  target: localTarget(opened, { type: "user", id: "local" }),
  store: opened.runtime.store,
  env: {},
  options: { strict: false, dryRun: true, target: "local" },
});
const report = await run.done;
const seconds = (performance.now() - started) / 1000;
await opened.close();
removeTempProjects();

if (!report.passed) throw new Error(`the bench run failed: ${JSON.stringify(report.counts)}`);
console.log(
  `${report.counts.total} eval cases at maxConcurrency ${maxConcurrency} (scripted model, in-process, stored): ` +
    `${seconds.toFixed(2)} s wall (target < 10 s), ${(report.counts.total / seconds).toFixed(1)} cases/s; project load ${loadMs.toFixed(0)} ms`,
);
