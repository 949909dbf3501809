/**
 * Discovery benchmark: generates a project with 250 zod tool files under
 * bench/.work/ and times `bdk validate` in a fresh process, 3 runs. Each
 * case starts with an empty transpile cache (`XDG_CACHE_HOME` under
 * bench/.work), so the first run transpiles every module (cold); later runs
 * hit the cache, as a developer's repeated `bdk validate` would (warm).
 * Targets: under 2 s cold, under 1 s warm. Besides wall time it prints the
 * CPU time of the process (user + system), steadier on a shared machine.
 *
 * The first case is real-shaped (real-shaped.ts): the 250 tools import zod
 * and a tree of about twenty `bot/lib` helpers, as the field's projects do.
 *
 * The second case gives the 250 tools one shared `bot/lib` module that throws
 * at import: the same target, and it prints how many lines the report takes
 * (the module is evaluated once and reported once, not 250 times). The
 * third imports it through a tsconfig `paths` alias (`~lib/catalog.js`), as
 * many projects do: every bare import then takes a round trip in the scan.
 *
 * `--bin` runs another build of the kit (a packed one, whose `dist/` is
 * compiled JavaScript: a checkout runs its TypeScript through tsx, which
 * costs about a second of CPU per start).
 *
 * `--case real-shaped` runs one case.
 *
 *   npx tsx bench/discovery/run.ts [--tools 250] [--runs 3] [--case name] [--bin path/to/bdk.mjs]
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeRealShapedBot } from "./real-shaped.ts";

const KIT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TARGET_MS = { cold: 2000, warm: 1000 };
const CACHE_HOME = path.join(KIT_ROOT, "bench", ".work", "discovery-cache");

function flag(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

const CASES = ["real-shaped", "zod-tools", "failing-lib", "failing-lib-alias"] as const;
type Case = (typeof CASES)[number];

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
  if (kind === "failing-lib" || kind === "failing-lib-alias") {
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
  if (kind === "real-shaped") return writeRealShapedBot(dir, tools, salt);
  for (let i = 0; i < tools; i++) writeFileSync(path.join(dir, "bot", "tools", `tool_${String(i).padStart(3, "0")}.ts`), toolSource(i, salt, kind));
}

/** CPU time (ms) of this process's waited-for children so far: /proc/self/stat's cutime + cstime, in clock ticks of 10 ms. */
function childrenCpuMs(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** Time of one `bdk validate` and the lines of its report (diagnostics, hints and the verdict). */
function timeValidate(dir: string, kind: Case): { ms: number; cpuMs: number; lines: number } {
  const start = performance.now();
  const cpuBefore = childrenCpuMs();
  const result = spawnSync(process.execPath, [BIN, "validate", "--dir", dir], {
    cwd: KIT_ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", XDG_CACHE_HOME: CACHE_HOME },
  });
  const elapsed = performance.now() - start;
  const expected = kind === "zod-tools" || kind === "real-shaped" ? /: valid \(0 errors/ : /: invalid \(1 error, 0 warnings\)/;
  if (!expected.test(result.stdout)) throw new Error(`validate did not report what the case expects:\n${result.stdout}${result.stderr}`);
  return { ms: elapsed, cpuMs: childrenCpuMs() - cpuBefore, lines: result.stdout.trimEnd().split("\n").length };
}

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

const BIN = path.resolve(option("bin") ?? path.join(KIT_ROOT, "bin", "bdk.mjs"));

const tools = flag("tools", 250);
const runs = flag("runs", 3);
let allOnTarget = true;

console.log(`kit: ${BIN}`);
const only = option("case");
if (only !== undefined && !CASES.includes(only as Case)) throw new Error(`--case: one of ${CASES.join(", ")}`);
for (const kind of CASES.filter((name) => only === undefined || name === only)) {
  const dir = path.join(KIT_ROOT, "bench", ".work", `discovery-${kind}-${tools}`);
  generate(dir, tools, kind);
  rmSync(CACHE_HOME, { recursive: true, force: true });
  const warm: { ms: number; cpuMs: number }[] = [];
  let lines = 0;
  let cold = { ms: 0, cpuMs: 0 };
  for (let run = 0; run < runs; run++) {
    const measured = timeValidate(dir, kind);
    if (run === 0) cold = measured;
    else warm.push(measured);
    lines = measured.lines;
    console.log(`${kind} run ${run + 1} (${run === 0 ? "cold: empty cache" : "warm"}): ${Math.round(measured.ms)} ms, CPU ${measured.cpuMs} ms`);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  const warmMs = median(warm.map((run) => run.ms));
  const label = {
    "real-shaped": `${tools} tools importing zod and a bot/lib helper tree`,
    "zod-tools": `${tools} tool files`,
    "failing-lib": `${tools} tools sharing a bot/lib module that throws`,
    "failing-lib-alias": `${tools} tools importing that module through a tsconfig alias`,
  }[kind];
  const report = kind === "zod-tools" || kind === "real-shaped" ? "" : `; the report takes ${lines} lines`;
  console.log(
    `bdk validate, ${label}: cold ${Math.round(cold.ms)} ms (CPU ${cold.cpuMs} ms, target < ${TARGET_MS.cold} ms), ` +
      `warm median ${Math.round(warmMs)} ms (CPU ${median(warm.map((run) => run.cpuMs))} ms, target < ${TARGET_MS.warm} ms)${report}`,
  );
  allOnTarget &&= cold.ms < TARGET_MS.cold && !(warmMs >= TARGET_MS.warm);
}
process.exitCode = allOnTarget ? 0 : 1;
