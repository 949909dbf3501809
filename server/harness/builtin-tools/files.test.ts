import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LoadedTool } from "../../load/types.ts";
import { executeTool } from "../execute-tool.ts";
import { editTool } from "./edit.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { lsTool } from "./ls.ts";
import { readTool } from "./read.ts";
import { tempDir, toolContext } from "./test-context.ts";
import { writeTool } from "./write.ts";

let temp: ReturnType<typeof tempDir>;
const file = (relative: string) => path.join(temp.dir, relative);

function put(relative: string, contents: string | Buffer) {
  mkdirSync(path.dirname(file(relative)), { recursive: true });
  writeFileSync(file(relative), contents);
}

const run = (tool: LoadedTool, input: Record<string, unknown>) => executeTool(tool, input, toolContext(temp.dir));

beforeEach(() => {
  temp = tempDir();
});
afterEach(() => temp.remove());

describe("read", () => {
  it("returns the content and the line count, or a window of lines", async () => {
    put("notes.txt", "one\ntwo\nthree\nfour\n");
    expect((await run(readTool(), { path: "notes.txt" })).output).toEqual({ path: "notes.txt", content: "one\ntwo\nthree\nfour", totalLines: 4 });
    expect((await run(readTool(), { path: "notes.txt", offset: 2, limit: 2 })).output).toEqual({ path: "notes.txt", content: "two\nthree", totalLines: 4 });
  });

  it("accepts an absolute path inside the workspace", async () => {
    put("a.txt", "hi");
    expect((await run(readTool(), { path: file("a.txt") })).output).toMatchObject({ content: "hi" });
  });

  it("reads a name that starts with two dots, by absolute path and through an absolute symlink", async () => {
    put("..notes", "dotted");
    symlinkSync(file("..notes"), file("link"));
    expect((await run(readTool(), { path: file("..notes") })).output).toMatchObject({ content: "dotted" });
    expect((await run(readTool(), { path: "link" })).output).toMatchObject({ content: "dotted" });
  });

  it("says a name is too long in the path the model gave, not an internal one", async () => {
    const long = `${"a".repeat(300)}.txt`;
    const outcome = await run(readTool(), { path: long });
    expect(outcome).toMatchObject({ isError: true, output: `${JSON.stringify(long)} has a name longer than the file system allows` });
  });

  it("refuses binary files and directories, and says when a file is missing", async () => {
    put("image.bin", Buffer.from([0x89, 0x50, 0x00, 0x01]));
    mkdirSync(file("folder"));
    expect(await run(readTool(), { path: "image.bin" })).toMatchObject({ isError: true, output: '"image.bin" looks like a binary file' });
    expect(await run(readTool(), { path: "folder" })).toMatchObject({ isError: true, output: '"folder" is a directory; use ls' });
    expect(await run(readTool(), { path: "missing.txt" })).toMatchObject({ isError: true, output: '"missing.txt" does not exist' });
  });

  it("caps what it returns at 256 KiB and says so", async () => {
    put("big.txt", `${"x".repeat(1000)}\n`.repeat(400));
    const { output } = await run(readTool(), { path: "big.txt" });
    const result = output as { content: string; totalLines: number; truncated?: string };
    expect(Buffer.byteLength(result.content)).toBe(256 * 1024);
    expect(result.totalLines).toBe(400);
    expect(result.truncated).toMatch(/offset and limit/);
  });
});

describe("write", () => {
  it("creates parent folders and reports the bytes written", async () => {
    const outcome = await run(writeTool(), { path: "src/deep/new.ts", content: "héllo" });
    expect(outcome).toMatchObject({ isError: false, output: { path: "src/deep/new.ts", bytes: 6 } });
    expect(readFileSync(file("src/deep/new.ts"), "utf8")).toBe("héllo");
  });

  it("refuses a path ending in / (it names a folder), also for edit", async () => {
    put("f.txt", "text");
    for (const target of ["dir/", "f.txt/"]) {
      expect(await run(writeTool(), { path: target, content: "x" })).toMatchObject({
        isError: true,
        output: `${JSON.stringify(target)} ends with "/", so it names a folder: give the path of a file`,
      });
    }
    expect(await run(editTool(), { path: "f.txt/", oldString: "text", newString: "new" })).toMatchObject({ isError: true, output: expect.stringContaining("names a folder") });
    expect(readdirSync(temp.dir)).toEqual(["f.txt"]);
    expect(readFileSync(file("f.txt"), "utf8")).toBe("text");
  });

  it.runIf(process.platform !== "win32")("keeps a backslash as part of a name (it is no separator on POSIX)", async () => {
    expect(await run(writeTool(), { path: "a\\b.txt", content: "x" })).toMatchObject({ isError: false });
    expect(readdirSync(temp.dir)).toEqual(["a\\b.txt"]);
    expect((await run(readTool(), { path: "a\\b.txt" })).output).toMatchObject({ content: "x" });
    expect(await run(readTool(), { path: "a/b.txt" })).toMatchObject({ isError: true, output: '"a/b.txt" does not exist' });
  });

  it("is a write-effect tool", () => {
    expect(writeTool().effectLabel).toBe("write");
    expect(editTool().effectLabel).toBe("write");
    expect(readTool().effectLabel).toBe("read");
  });
});

describe("edit", () => {
  it("replaces a unique occurrence, literally (no $ patterns)", async () => {
    put("a.ts", "const a = 1;\nconst b = 2;\n");
    const outcome = await run(editTool(), { path: "a.ts", oldString: "const b = 2;", newString: "const b = '$&';" });
    expect(outcome.output).toEqual({ path: "a.ts", replacements: 1 });
    expect(readFileSync(file("a.ts"), "utf8")).toBe("const a = 1;\nconst b = '$&';\n");
  });

  it("refuses an ambiguous oldString unless replaceAll, and a missing one", async () => {
    put("a.ts", "x x x");
    expect(await run(editTool(), { path: "a.ts", oldString: "x", newString: "y" })).toMatchObject({
      isError: true,
      output: expect.stringMatching(/occurs 3 times in "a.ts".*replaceAll/),
    });
    expect(readFileSync(file("a.ts"), "utf8")).toBe("x x x");
    expect((await run(editTool(), { path: "a.ts", oldString: "x", newString: "y", replaceAll: true })).output).toEqual({ path: "a.ts", replacements: 3 });
    expect(readFileSync(file("a.ts"), "utf8")).toBe("y y y");
    expect(await run(editTool(), { path: "a.ts", oldString: "zzz", newString: "y" })).toMatchObject({ isError: true, output: 'oldString was not found in "a.ts"' });
    expect(await run(editTool(), { path: "a.ts", oldString: "", newString: "y" })).toMatchObject({ isError: true });
    expect(await run(editTool(), { path: "none.ts", oldString: "a", newString: "b" })).toMatchObject({ isError: true, output: '"none.ts" does not exist' });
  });
});

describe("ls", () => {
  it("lists names, types and sizes, dotfiles included", async () => {
    put("b.txt", "12345");
    put(".cursor/skills/x/SKILL.md", "s");
    mkdirSync(file("dir"));
    symlinkSync("b.txt", file("link"));
    const { output } = await run(lsTool(), {});
    expect(output).toEqual({
      path: ".",
      entries: [
        { name: ".cursor", type: "dir", size: expect.any(Number) },
        { name: "b.txt", type: "file", size: 5 },
        { name: "dir", type: "dir", size: expect.any(Number) },
        { name: "link", type: "symlink", size: 5 },
      ],
    });
    expect(await run(lsTool(), { path: "nope" })).toMatchObject({ isError: true, output: '"nope" does not exist' });
  });
});

describe("glob", () => {
  beforeEach(() => {
    for (const name of ["src/a.ts", "src/b.tsx", "src/lib/c.ts", "src/lib/d.md", "README.md", "node_modules/pkg/index.ts", ".git/HEAD"]) put(name, "x");
  });

  it("matches **, *, ? and {a,b} and returns workspace-relative paths, skipping node_modules and .git", async () => {
    expect((await run(globTool(), { pattern: "**/*.ts" })).output).toEqual({ matches: ["src/a.ts", "src/lib/c.ts"] });
    expect((await run(globTool(), { pattern: "src/*.{ts,tsx}" })).output).toEqual({ matches: ["src/a.ts", "src/b.tsx"] });
    expect((await run(globTool(), { pattern: "*.md" })).output).toEqual({ matches: ["README.md"] });
    expect((await run(globTool(), { pattern: "?.md", path: "src/lib" })).output).toEqual({ matches: ["src/lib/d.md"] });
    expect((await run(globTool(), { pattern: "**" })).output).toEqual({ matches: ["README.md", "src/a.ts", "src/b.tsx", "src/lib/c.ts", "src/lib/d.md"] });
  });

  it("caps results at 1000", async () => {
    for (let index = 0; index < 1005; index++) put(`many/f${index}.txt`, "");
    const { output } = await run(globTool(), { pattern: "many/*.txt" });
    expect((output as { matches: string[] }).matches).toHaveLength(1000);
    expect(output).toHaveProperty("truncated");
  });
});

describe("grep", () => {
  beforeEach(() => {
    put("src/a.ts", "import x from 'y';\nexport const TODO = 1;\n// todo: later\n");
    put("src/b.md", "TODO in markdown\n");
    put("node_modules/p/i.ts", "TODO hidden\n");
    put("bin.dat", Buffer.from("TODO\0binary"));
  });

  it("finds matching lines with paths and line numbers, in text files only", async () => {
    expect((await run(grepTool(), { pattern: "TODO" })).output).toEqual({
      matches: [
        { path: "src/a.ts", line: 2, text: "export const TODO = 1;" },
        { path: "src/b.md", line: 1, text: "TODO in markdown" },
      ],
    });
  });

  it("filters by glob, narrows to a path, ignores case", async () => {
    expect((await run(grepTool(), { pattern: "todo", glob: "*.ts", ignoreCase: true })).output).toEqual({
      matches: [
        { path: "src/a.ts", line: 2, text: "export const TODO = 1;" },
        { path: "src/a.ts", line: 3, text: "// todo: later" },
      ],
    });
    expect((await run(grepTool(), { pattern: "^import", path: "src/a.ts" })).output).toEqual({ matches: [{ path: "src/a.ts", line: 1, text: "import x from 'y';" }] });
  });

  it("caps matches at 500 and reports an invalid pattern", async () => {
    put("many.txt", "hit\n".repeat(600));
    const { output } = await run(grepTool(), { pattern: "hit", path: "many.txt" });
    expect((output as { matches: unknown[] }).matches).toHaveLength(500);
    expect(output).toHaveProperty("truncated");
    expect(await run(grepTool(), { pattern: "(" })).toMatchObject({ isError: true, output: expect.stringMatching(/^invalid pattern/) });
  });
});
