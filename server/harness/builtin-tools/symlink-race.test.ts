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
 * killed: four renames a cycle, so each state holds about as long as the
 * other. A write that finds sub missing between two renames creates a folder
 * there, which would jam the renames: such a stray folder is removed.
 */
const FLIPPER = `
const fs = require("node:fs");
const [ws, outside] = process.argv.slice(1);
const sub = ws + "/sub", parked = ws + "/sub.dir", link = ws + "/sub.link";
const removeStray = () => { try { if (fs.lstatSync(sub).isDirectory()) fs.rmSync(sub, { recursive: true, force: true }); } catch {} };
process.stdout.write("flipping\\n");
for (;;) {
  try { fs.symlinkSync(outside, link); } catch {}
  try { fs.renameSync(sub, parked); } catch { removeStray(); }
  try { fs.renameSync(link, sub); } catch {}
  try { fs.renameSync(sub, link); } catch {}
  removeStray();
  try { fs.renameSync(parked, sub); } catch {}
}`;

/**
 * Replaces <ws>/flip.txt, atomically each time (rename over it), by a
 * symlink to target.txt beside it and by a plain file, until killed.
 */
const FILE_FLIPPER = `
const fs = require("node:fs");
const [ws] = process.argv.slice(1);
const name = ws + "/flip.txt";
process.stdout.write("flipping\\n");
for (;;) {
  try { fs.symlinkSync("target.txt", ws + "/flip.link"); fs.renameSync(ws + "/flip.link", name); } catch {}
  try { fs.writeFileSync(ws + "/flip.file", "plain\\n"); fs.renameSync(ws + "/flip.file", name); } catch {}
}`;

let temp: ReturnType<typeof tempDir>;
let workspace: string;
let outside: string;
let flipper: ChildProcess | undefined;

async function startFlipper(script: string, ...args: string[]) {
  flipper = spawn(process.execPath, ["-e", script, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve) => flipper!.stdout!.once("data", resolve));
}

beforeEach(() => {
  temp = tempDir();
  workspace = path.join(temp.dir, "workspace");
  outside = path.join(temp.dir, "outside");
  mkdirSync(path.join(workspace, "sub"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(workspace, "sub", "notes.txt"), "inside: marker\n");
  writeFileSync(path.join(outside, "notes.txt"), "OUTSIDE: marker\n");
});

afterEach(async () => {
  if (flipper) {
    const exited = new Promise((resolve) => flipper!.once("exit", resolve));
    flipper.kill("SIGKILL");
    await exited;
    flipper = undefined;
  }
  temp.remove();
});

/** What is in the outside folder besides its own notes.txt, and whether that file changed. */
function landedOutside(): string[] {
  return readdirSync(outside).filter((name) => name !== "notes.txt");
}

describe("confinement while a folder flips to a symlink outside", () => {
  beforeEach(() => startFlipper(FLIPPER, workspace, outside));

  it("write, edit and workspaceFiles never land outside", async () => {
    const ctx = toolContext(workspace);
    let written = 0;
    let refused = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const write = await executeTool(writeTool(), { path: `sub/w-${round}.txt`, content: "x" }, ctx);
      if (!write.isError) written++;
      else if (String(write.output).includes("is outside the workspace")) refused++;
      await executeTool(editTool(), { path: "sub/notes.txt", oldString: "marker", newString: "marker" + round }, ctx);
      await writeWorkspaceFiles(workspace, { [`sub/f-${round}.txt`]: "y" }).catch(() => undefined);
    }
    expect(landedOutside()).toEqual([]);
    expect(readFileSync(path.join(outside, "notes.txt"), "utf8")).toBe("OUTSIDE: marker\n");
    // The race was real: some writes went through the folder, some met the symlink and were refused.
    expect(written).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
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

describe("a file that flips between a plain file and a symlink inside", () => {
  beforeEach(async () => {
    writeFileSync(path.join(workspace, "target.txt"), "via link\n");
    // There from the start: the flipper only ever replaces it.
    writeFileSync(path.join(workspace, "flip.txt"), "plain\n");
    await startFlipper(FILE_FLIPPER, workspace);
  });

  it("is read either way, never failing with an internal path or a half-seen change", async () => {
    const ctx = toolContext(workspace);
    const seen = new Set<string>();
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS * 2; round++) {
      const read = await executeTool(readTool(), { path: "flip.txt" }, ctx);
      if (read.isError) failures.push(String(read.output));
      else seen.add((read.output as { content: string }).content);
    }
    expect(failures).toEqual([]);
    // Both states were met: the race happened.
    expect([...seen].sort()).toEqual(["plain", "via link"]);
  }, 120_000);
});
