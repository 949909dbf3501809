/**
 * Confinement under a real race: a separate process flips `workspace/sub`
 * between a folder and a symlink to a folder outside, as fast as it can,
 * while the file tools and `workspaceFiles` write, edit and read through it.
 * Nothing may land outside, and nothing outside may be read.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { executeTool } from "../execute-tool.ts";
import { writeWorkspaceFiles } from "../workspace.ts";
import { editTool } from "./edit.ts";
import { grepTool } from "./grep.ts";
import { readTool } from "./read.ts";
import { tempDir, toolContext } from "./test-context.ts";
import { writeTool } from "./write.ts";

const ROUNDS = 300;

/**
 * Swaps <ws>/sub between the real folder and a symlink to <outside> until
 * killed: four renames a cycle, so each state holds about as long as the other.
 */
const FLIPPER = `
const fs = require("node:fs");
const [ws, outside] = process.argv.slice(1);
const sub = ws + "/sub", parked = ws + "/sub.dir", link = ws + "/sub.link";
fs.symlinkSync(outside, link);
process.stdout.write("flipping\\n");
for (;;) {
  try { fs.renameSync(sub, parked); } catch {}
  try { fs.renameSync(link, sub); } catch {}
  try { fs.renameSync(sub, link); } catch {}
  try { fs.renameSync(parked, sub); } catch {}
}`;

let temp: ReturnType<typeof tempDir>;
let workspace: string;
let outside: string;
let flipper: ChildProcess;

beforeEach(async () => {
  temp = tempDir();
  workspace = path.join(temp.dir, "workspace");
  outside = path.join(temp.dir, "outside");
  mkdirSync(path.join(workspace, "sub"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(workspace, "sub", "notes.txt"), "inside: marker\n");
  writeFileSync(path.join(outside, "notes.txt"), "OUTSIDE: marker\n");
  flipper = spawn(process.execPath, ["-e", FLIPPER, workspace, outside], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve) => flipper.stdout!.once("data", resolve));
});

afterEach(async () => {
  const exited = new Promise((resolve) => flipper.once("exit", resolve));
  flipper.kill("SIGKILL");
  await exited;
  temp.remove();
});

/** What is in the outside folder besides its own notes.txt, and whether that file changed. */
function landedOutside(): string[] {
  return readdirSync(outside).filter((name) => name !== "notes.txt");
}

describe("confinement while a folder flips to a symlink outside", () => {
  it("write, edit and workspaceFiles never land outside", async () => {
    const ctx = toolContext(workspace);
    let written = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const write = await executeTool(writeTool(), { path: `sub/w-${round}.txt`, content: "x" }, ctx);
      if (!write.isError) written++;
      await executeTool(editTool(), { path: "sub/notes.txt", oldString: "marker", newString: "marker" + round }, ctx);
      await writeWorkspaceFiles(workspace, { [`sub/f-${round}.txt`]: "y" }).catch(() => undefined);
    }
    expect(landedOutside()).toEqual([]);
    expect(readFileSync(path.join(outside, "notes.txt"), "utf8")).toBe("OUTSIDE: marker\n");
    // The race was real: some writes went through the folder, some were refused.
    expect(written).toBeGreaterThan(0);
  }, 120_000);

  it("read and grep never return what is outside", async () => {
    const ctx = toolContext(workspace);
    for (let round = 0; round < ROUNDS; round++) {
      const read = await executeTool(readTool(), { path: "sub/notes.txt" }, ctx);
      expect(JSON.stringify(read.output)).not.toContain("OUTSIDE");
      // A grep starts a worker: fewer rounds, each walking the flipping folder.
      if (round % 6 !== 0) continue;
      const grep = await executeTool(grepTool(), { pattern: "marker" }, ctx);
      expect(JSON.stringify(grep.output)).not.toContain("OUTSIDE");
    }
  }, 120_000);
});
