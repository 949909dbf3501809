/**
 * Discovery benchmark: generates a project with 250 zod tool files under
 * bench/.work/ and times a cold `bdk validate` in a fresh process, 3 runs.
 * Each invocation writes new file contents (a salt), so the first run also
 * pays jiti's transpile; later runs hit its filesystem cache, as a developer's
 * repeated `bdk validate` would. Target: under 2 s.
 *
 *   npx tsx bench/discovery/run.ts [--tools 250] [--runs 3]
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const KIT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TARGET_MS = 2000;

function flag(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

function toolSource(index: number, salt: string): string {
  return `import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";

// ${salt}
export default defineTool({
  description: "Benchmark tool number ${index}: looks up a record.",
  effect: ${index % 2 === 0 ? '"read"' : '"write"'},
  inputSchema: z.object({
    id: z.string().min(1).describe("Record id"),
    limit: z.number().int().min(1).max(100).default(10),
    tags: z.array(z.string()).optional(),
    mode: z.enum(["fast", "full"]).optional(),
  }),
  async execute({ id, limit }) {
    return { id, limit, tool: ${index} };
  },
});
`;
}

function generate(dir: string, tools: number): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "bot", "tools"), { recursive: true });
  symlinkSync(path.join(KIT_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `bench-${tools}-tools`, private: true, type: "module" }));
  writeFileSync(path.join(dir, "bot", "instructions.md"), "You are a benchmark agent.\n");
  const salt = `salt ${Date.now()}`;
  for (let i = 0; i < tools; i++) writeFileSync(path.join(dir, "bot", "tools", `tool_${String(i).padStart(3, "0")}.ts`), toolSource(i, salt));
}

function timeValidate(dir: string): number {
  const start = performance.now();
  const output = execFileSync(process.execPath, [path.join(KIT_ROOT, "bin", "bdk.mjs"), "validate", "--dir", dir], {
    cwd: KIT_ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  const elapsed = performance.now() - start;
  if (!/: valid \(0 errors/.test(output)) throw new Error(`validate did not pass:\n${output}`);
  return elapsed;
}

const tools = flag("tools", 250);
const runs = flag("runs", 3);
const dir = path.join(KIT_ROOT, "bench", ".work", `discovery-${tools}`);
generate(dir, tools);

const times: number[] = [];
for (let run = 0; run < runs; run++) {
  const ms = timeValidate(dir);
  times.push(ms);
  console.log(`run ${run + 1}${run === 0 ? " (new sources: transpile)" : " (jiti fs cache warm)"}: ${Math.round(ms)} ms`);
}
const sorted = [...times].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)];
console.log(`bdk validate, ${tools} tool files: min ${Math.round(sorted[0])} ms, median ${Math.round(median)} ms (target < ${TARGET_MS} ms)`);
process.exitCode = median < TARGET_MS ? 0 : 1;
