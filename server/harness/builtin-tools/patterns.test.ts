/**
 * Model-supplied patterns: a catastrophic regular expression stops its own
 * grep call while the event loop keeps running; globs follow picomatch;
 * .gitignore is honoured; grep names the files it skipped for size.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LoadedTool } from "../../load/types.ts";
import { executeTool } from "../execute-tool.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { tempDir, toolContext } from "./test-context.ts";

let temp: ReturnType<typeof tempDir>;

function put(relative: string, contents: string | Buffer = "") {
  const target = path.join(temp.dir, relative);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, contents);
}

const run = (tool: LoadedTool, input: Record<string, unknown>) => executeTool(tool, input, toolContext(temp.dir));
const globbed = async (input: Record<string, unknown>) => ((await run(globTool(), input)).output as { matches: string[] }).matches;

beforeEach(() => {
  temp = tempDir();
});
afterEach(() => temp.remove());

describe("a regular expression that backtracks catastrophically", () => {
  it("stops its grep call with an error while the event loop keeps serving", async () => {
    put("input.txt", `${"a".repeat(40)}!\n`);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    try {
      const outcome = await run(grepTool(), { pattern: "(a+)+$" });
      expect(outcome.isError).toBe(true);
      expect(String(outcome.output)).toMatch(/grep pattern "\(a\+\)\+\$" ran longer than \d+ s and was stopped: simplify it/);
      // The main thread ran its timers throughout: the pattern ran elsewhere.
      expect(ticks).toBeGreaterThan(10);
    } finally {
      clearInterval(ticker);
    }
    // The next call gets a fresh worker.
    put("ok.txt", "fine\n");
    expect((await run(grepTool(), { pattern: "fine" })).output).toEqual({ matches: [{ path: "ok.txt", line: 1, text: "fine" }] });
  }, 60_000);
});

describe("glob dialect (picomatch)", () => {
  beforeEach(() => {
    for (const name of ["a.ts", "b.ts", "c.ts", "x.md", "y.md", "xy.md", "*.txt", "plain.txt", "src/one.ts", "src/deep/two.ts"]) put(name);
  });

  it("matches character classes, extglobs, escapes and src/** below src", async () => {
    expect(await globbed({ pattern: "[ab].ts" })).toEqual(["a.ts", "b.ts"]);
    expect(await globbed({ pattern: "[!ab].ts" })).toEqual(["c.ts"]);
    expect(await globbed({ pattern: "+(x|y).md" })).toEqual(["x.md", "xy.md", "y.md"]);
    expect(await globbed({ pattern: "\\*.txt" })).toEqual(["*.txt"]);
    expect(await globbed({ pattern: "src/**" })).toEqual(["src/deep/two.ts", "src/one.ts"]);
    expect(await globbed({ pattern: "**/*.ts", path: "src" })).toEqual(["src/deep/two.ts", "src/one.ts"]);
  });

  it("filters grep by a glob the same way (a name without / at any depth)", async () => {
    put("src/deep/hit.ts", "needle\n");
    put("src/deep/hit.md", "needle\n");
    const outcome = await run(grepTool(), { pattern: "needle", glob: "@(hit).ts" });
    expect(outcome.output).toEqual({ matches: [{ path: "src/deep/hit.ts", line: 1, text: "needle" }] });
  });
});

describe(".gitignore", () => {
  beforeEach(() => {
    put(".gitignore", "dist/\n*.log\n!keep.log\n");
    put("pkg/.gitignore", "generated.ts\n");
    for (const name of ["src/a.ts", "dist/bundle.ts", "debug.log", "keep.log", "pkg/generated.ts", "pkg/index.ts"]) put(name, "needle\n");
  });

  it("skips ignored files in glob and grep, nested .gitignore files and negations included", async () => {
    expect(await globbed({ pattern: "**/*" })).toEqual([".gitignore", "keep.log", "pkg/.gitignore", "pkg/index.ts", "src/a.ts"]);
    const grep = (await run(grepTool(), { pattern: "needle" })).output as { matches: { path: string }[] };
    expect(grep.matches.map((match) => match.path)).toEqual(["keep.log", "pkg/index.ts", "src/a.ts"]);
  });

  it("searches an ignored folder named explicitly", async () => {
    expect(await globbed({ pattern: "*.ts", path: "dist" })).toEqual(["dist/bundle.ts"]);
  });
});

describe("grep and large files", () => {
  it("says which files it skipped for their size", async () => {
    put("small.txt", "needle\n");
    put("huge.log", Buffer.alloc(9 * 1024 * 1024, "needle\n"));
    const outcome = await run(grepTool(), { pattern: "needle" });
    expect(outcome.output).toEqual({
      matches: [{ path: "small.txt", line: 1, text: "needle" }],
      skipped: { reason: expect.stringContaining("larger than 8388608 bytes"), files: [{ path: "huge.log", bytes: 9 * 1024 * 1024 }] },
    });
  });
});
