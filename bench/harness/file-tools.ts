/**
 * The cost of the confined file tools, called directly (no model, no turn):
 * grep over 2,000 small files, 20 small greps at once (as 20 sessions would),
 * and 1,000 `read` calls of a small file. Each figure is the best of a few
 * rounds, so a busy machine shows less noise.
 * Run: npx tsx bench/harness/file-tools.ts [rounds=5]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { grepTool } from "../../server/harness/builtin-tools/grep.ts";
import { readTool } from "../../server/harness/builtin-tools/read.ts";
import { tempDir, toolContext } from "../../server/harness/builtin-tools/test-context.ts";

const rounds = Number(process.argv[2] ?? 5);
const FOLDERS = 20;
const FILES_PER_FOLDER = 100;
const CONCURRENT_GREPS = 20;
const READS = 1000;

/** A small source-like file; one in ten holds the needle. */
function fileText(index: number): string {
  const lines = Array.from({ length: 20 }, (_, line) => `export const value${line} = ${index * 20 + line}; // line ${line}`);
  if (index % 10 === 0) lines[7] = `// needle ${index}`;
  return `${lines.join("\n")}\n`;
}

function makeWorkspace(folders: number, filesPerFolder: number): { dir: string; remove(): void } {
  const workspace = tempDir("bdk-bench-files-");
  for (let folder = 0; folder < folders; folder++) {
    mkdirSync(path.join(workspace.dir, `pkg${folder}`, "src"), { recursive: true });
    for (let file = 0; file < filesPerFolder; file++) {
      writeFileSync(path.join(workspace.dir, `pkg${folder}`, "src", `f${file}.ts`), fileText(folder * filesPerFolder + file));
    }
  }
  return workspace;
}

async function best(run: () => Promise<void>): Promise<number> {
  await run(); // warm up
  let fastest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    await run();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

const grep = grepTool();
const read = readTool();

const small = makeWorkspace(2, 10);
const smallCtx = toolContext(small.dir);
// Reads first: the greps' worker threads must not share the cores with them.
const readMs = await best(async () => {
  for (let call = 0; call < READS; call++) await read.execute({ path: "pkg0/src/f1.ts" }, smallCtx);
});

const large = makeWorkspace(FOLDERS, FILES_PER_FOLDER);
const largeCtx = toolContext(large.dir);
let found = 0;
const grepMs = await best(async () => {
  const result = (await grep.execute({ pattern: "needle" }, largeCtx)) as { matches: unknown[] };
  found = result.matches.length;
});
if (found !== (FOLDERS * FILES_PER_FOLDER) / 10) throw new Error(`grep found ${found} matches`);

let failedGreps = 0;
const concurrentMs = await best(async () => {
  const settled = await Promise.allSettled(Array.from({ length: CONCURRENT_GREPS }, () => grep.execute({ pattern: "needle" }, smallCtx)));
  failedGreps += settled.filter((outcome) => outcome.status === "rejected").length;
});

large.remove();
small.remove();
console.log(`grep over ${FOLDERS * FILES_PER_FOLDER} small files: ${grepMs.toFixed(1)} ms`);
console.log(`${CONCURRENT_GREPS} concurrent small greps: ${concurrentMs.toFixed(1)} ms${failedGreps > 0 ? ` (${failedGreps} of ${CONCURRENT_GREPS * (rounds + 1)} failed)` : ""}`);
console.log(`${READS} read calls: ${readMs.toFixed(1)} ms (${((readMs / READS) * 1000).toFixed(0)} µs each)`);
