import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
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

/*
 * <tmp>/workspace            the session workspace
 * <tmp>/outside/secret.txt   must stay unread and unchanged
 * workspace/escape -> ../outside, workspace/leak.txt -> ../outside/secret.txt
 */
let temp: ReturnType<typeof tempDir>;
let workspace: string;
let outside: string;

beforeEach(() => {
  temp = tempDir();
  workspace = path.join(temp.dir, "workspace");
  outside = path.join(temp.dir, "outside");
  mkdirSync(workspace);
  mkdirSync(outside);
  writeFileSync(path.join(outside, "secret.txt"), "TOP SECRET\n");
  writeFileSync(path.join(workspace, "inside.txt"), "TOP SECRET inside\n");
  symlinkSync("../outside", path.join(workspace, "escape"));
  symlinkSync("../outside/secret.txt", path.join(workspace, "leak.txt"));
});
afterEach(() => temp.remove());

// Paths are functions: `outside` exists only once each test has set up its directories.
const escapes: Array<[string, () => string]> = [
  ["a ../ path", () => "../outside/secret.txt"],
  ["an absolute path outside", () => path.join(outside, "secret.txt")],
  ["a symlink that points outside", () => "escape/secret.txt"],
];
const directoryEscapes: Array<[string, () => string]> = [
  ["a ../ path", () => "../outside"],
  ["an absolute path outside", () => outside],
  ["a symlink that points outside", () => "escape"],
];

async function expectRefused(tool: LoadedTool, input: Record<string, unknown>) {
  const outcome = await executeTool(tool, input, toolContext(workspace));
  expect(outcome.isError).toBe(true);
  expect(String(outcome.output)).toMatch(/is outside the workspace/);
  expect(JSON.stringify(outcome.output)).not.toContain("TOP SECRET\\n");
}

function outsideUntouched() {
  expect(readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("TOP SECRET\n");
  expect(existsSync(path.join(outside, "new.txt"))).toBe(false);
  expect(existsSync(path.join(temp.dir, "new.txt"))).toBe(false);
}

describe.each(escapes)("file tools refuse %s", (_label, fileOf) => {
  it("read", async () => {
    await expectRefused(readTool(), { path: fileOf() });
  });

  it("write (nothing is created or changed outside)", async () => {
    const file = fileOf();
    await expectRefused(writeTool(), { path: file, content: "pwned" });
    await expectRefused(writeTool(), { path: path.join(path.dirname(file), "new.txt"), content: "pwned" });
    outsideUntouched();
  });

  it("edit", async () => {
    await expectRefused(editTool(), { path: fileOf(), oldString: "TOP", newString: "PWNED" });
    outsideUntouched();
  });
});

describe.each(directoryEscapes)("directory tools refuse %s", (_label, directoryOf) => {
  it("ls", async () => {
    await expectRefused(lsTool(), { path: directoryOf() });
  });

  it("glob", async () => {
    await expectRefused(globTool(), { pattern: "**/*", path: directoryOf() });
  });

  it("grep", async () => {
    await expectRefused(grepTool(), { pattern: "SECRET", path: directoryOf() });
  });
});

describe("searches from the workspace root", () => {
  it("grep and glob do not follow a symlinked file or folder that leads outside", async () => {
    const grep = await executeTool(grepTool(), { pattern: "SECRET" }, toolContext(workspace));
    expect(grep.output).toEqual({ matches: [{ path: "inside.txt", line: 1, text: "TOP SECRET inside" }] });
    const glob = await executeTool(globTool(), { pattern: "**" }, toolContext(workspace));
    expect(glob.output).toEqual({ matches: ["inside.txt"] });
  });

  it("a write through a dangling symlink that points outside is refused", async () => {
    symlinkSync("../outside/new.txt", path.join(workspace, "dangling.txt"));
    await expectRefused(writeTool(), { path: "dangling.txt", content: "pwned" });
    outsideUntouched();
  });

  it("glob refuses a pattern that climbs out", async () => {
    const outcome = await executeTool(globTool(), { pattern: "../outside/*" }, toolContext(workspace));
    expect(outcome.isError).toBe(true);
    expect(outcome.output).toMatch(/without "\.\." segments/);
  });
});
