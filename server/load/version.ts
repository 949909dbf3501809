import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { listFilesRecursive } from "../discover/paths.ts";

/** A short content hash of every file under the bot folder: which version of the bot produced a run. */
export function botVersion(botDir: string): string {
  const hash = createHash("sha256");
  for (const relative of listFilesRecursive(botDir)) {
    hash.update(relative).update("\0").update(readFileSync(path.join(botDir, relative))).update("\0");
  }
  return hash.digest("hex").slice(0, 12);
}
