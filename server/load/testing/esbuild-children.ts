/** This process's live esbuild service processes (pids), from /proc (the kernel's own list), for tests that check none is left running. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export function esbuildChildren(): string[] {
  const found: string[] = [];
  for (const task of readdirSync(`/proc/${process.pid}/task`)) {
    for (const pid of readFileSync(`/proc/${process.pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) {
      try {
        if (path.basename(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]!).startsWith("esbuild")) found.push(pid);
      } catch {
        // Exited meanwhile.
      }
    }
  }
  return found;
}
