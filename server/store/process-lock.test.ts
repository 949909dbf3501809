import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { HOLDERS_DIR, isHolderAlive, listHolders, removeDeadHolder } from "./process-lock.ts";

const moduleUrl = new URL("./process-lock.ts", import.meta.url).href;

/** A real process that takes a lock, says so, and waits to be killed. */
function holderProcess(stateRoot: string): Promise<{ holder: string; kill: () => Promise<void> }> {
  const source = `const { takeProcessLock } = await import(${JSON.stringify(moduleUrl)});
const lock = takeProcessLock(${JSON.stringify(stateRoot)});
process.stdout.write(lock.holder + "\\n");
// The timer keeps \`lock\` reachable: a binding nothing refers to may be collected, and a collected connection is a released lock.
setInterval(() => lock.holder, 1000);`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", source], {
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
  it("sees a killed holder as dead, and removing it leaves nothing behind in the holders folder", async () => {
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
