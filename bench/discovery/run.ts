/**
 * Discovery benchmark: generates a project with 250 zod tool files under
 * bench/.work/ and times a cold `bdk validate` in a fresh process, 3 runs.
 * Each invocation writes new file contents (a salt), so the first run also
 * pays jiti's transpile; later runs hit its filesystem cache, as a developer's
 * repeated `bdk validate` would. Target: under 2 s.
 *
 * The second case gives the 250 tools one shared `bot/lib` module that throws
 * at import: the same target, and it prints how many lines the report takes
 * (the module is evaluated once and reported once, not 250 times). The
 * third imports it through a tsconfig `paths` alias (`~lib/catalog.js`), as
 * many projects do: every bare import then takes a round trip in the scan.
 *
 *   npx tsx bench/discovery/run.ts [--tools 250] [--runs 3]
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const KIT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TARGET_MS = 2000;

function flag(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

type Case = "zod-tools" | "failing-lib" | "failing-lib-alias";

function toolSource(index: number, salt: string, kind: Case): string {
  return `import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
${kind === "zod-tools" ? "" : `import { catalog } from "${kind === "failing-lib" ? "../lib/catalog.js" : "~lib/catalog.js"}";\n`}
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
    return { id, limit, tool: ${index}${kind === "zod-tools" ? "" : ", catalog"} };
  },
});
`;
}

const FAILING_LIB = `const url = process.env.BENCH_CATALOG_URL;
if (!url) throw new Error("BENCH_CATALOG_URL is not set");
export const catalog = { url };
`;

function generate(dir: string, tools: number, kind: Case): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "bot", "tools"), { recursive: true });
  if (kind !== "zod-tools") {
    mkdirSync(path.join(dir, "bot", "lib"));
    writeFileSync(path.join(dir, "bot", "lib", "catalog.ts"), FAILING_LIB);
  }
  if (kind === "failing-lib-alias") {
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "~lib/*": ["bot/lib/*"] } } }));
  }
  symlinkSync(path.join(KIT_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `bench-${tools}-tools`, private: true, type: "module" }));
  writeFileSync(path.join(dir, "bot", "instructions.md"), "You are a benchmark agent.\n");
  const salt = `salt ${Date.now()}`;
  for (let i = 0; i < tools; i++) writeFileSync(path.join(dir, "bot", "tools", `tool_${String(i).padStart(3, "0")}.ts`), toolSource(i, salt, kind));
}

/** Time of one `bdk validate` and the lines of its report (diagnostics, hints and the verdict). */
function timeValidate(dir: string, kind: Case): { ms: number; lines: number } {
  const start = performance.now();
  const result = spawnSync(process.execPath, [path.join(KIT_ROOT, "bin", "bdk.mjs"), "validate", "--dir", dir], {
    cwd: KIT_ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  const elapsed = performance.now() - start;
  const expected = kind === "zod-tools" ? /: valid \(0 errors/ : /: invalid \(1 error, 0 warnings\)/;
  if (!expected.test(result.stdout)) throw new Error(`validate did not report what the case expects:\n${result.stdout}${result.stderr}`);
  return { ms: elapsed, lines: result.stdout.trimEnd().split("\n").length };
}

const tools = flag("tools", 250);
const runs = flag("runs", 3);
let allOnTarget = true;

for (const kind of ["zod-tools", "failing-lib", "failing-lib-alias"] as const) {
  const dir = path.join(KIT_ROOT, "bench", ".work", `discovery-${kind}-${tools}`);
  generate(dir, tools, kind);
  const times: number[] = [];
  let lines = 0;
  for (let run = 0; run < runs; run++) {
    const measured = timeValidate(dir, kind);
    times.push(measured.ms);
    lines = measured.lines;
    console.log(`${kind} run ${run + 1}${run === 0 ? " (new sources: transpile)" : " (jiti fs cache warm)"}: ${Math.round(measured.ms)} ms`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const label = {
    "zod-tools": `${tools} tool files`,
    "failing-lib": `${tools} tools sharing a bot/lib module that throws`,
    "failing-lib-alias": `${tools} tools importing that module through a tsconfig alias`,
  }[kind];
  const report = kind === "zod-tools" ? "" : `; the report takes ${lines} lines`;
  console.log(`bdk validate, ${label}: min ${Math.round(sorted[0])} ms, median ${Math.round(median)} ms (target < ${TARGET_MS} ms)${report}`);
  allOnTarget &&= median < TARGET_MS;
}
process.exitCode = allOnTarget ? 0 : 1;
