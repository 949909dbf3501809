import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { HOLDERS_DIR, isHolderAlive, listHolders, removeDeadHolder } from "./process-lock.ts";

const moduleUrl = new URL("./process-lock.ts", import.meta.url).href;

/**
 * A real process that takes a lock, drops every reference to it, collects
 * garbage, says so, and waits to be killed: the lock must last as long as
 * the process, whatever became of the object that took it.
 */
function holderProcess(stateRoot: string): Promise<{ holder: string; kill: () => Promise<void> }> {
  const source = `const { takeProcessLock } = await import(${JSON.stringify(moduleUrl)});
const holder = takeProcessLock(${JSON.stringify(stateRoot)}).holder;
globalThis.gc();
process.stdout.write(holder + "\\n");
setInterval(() => undefined, 1000);`;
  const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", source], {
    cwd: path.dirname(fileURLToPath(import.meta.url)),
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.stdout.once("data", (chunk: Buffer) =>
      resolve({
        holder: chunk.toString().trim(),
        kill: () => new Promise((done) => (child.once("exit", () => done()), child.kill("SIGKILL"))),
      }),
    );
  });
}

describe("process locks", () => {
  it("keeps a holder alive while its process runs, sees it dead once killed, and removing it leaves nothing behind in the holders folder", async () => {
    const stateRoot = mkdtempSync(path.join(tmpdir(), "bdk-lock-"));
    const { holder, kill } = await holderProcess(stateRoot);
    expect(isHolderAlive(stateRoot, holder)).toBe(true);
    await kill();
    expect(isHolderAlive(stateRoot, holder)).toBe(false);
    removeDeadHolder(stateRoot, holder);
    expect(listHolders(stateRoot)).toEqual([]);
    expect(readdirSync(path.join(stateRoot, HOLDERS_DIR))).toEqual([]);
  });
});
