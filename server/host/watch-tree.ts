/**
 * Watches a folder tree for any change, atomic saves included. Editors save
 * by writing a temporary file and renaming it over the old one; Node's
 * recursive `fs.watch` on Linux watches each file it found, so after the
 * first such save it watches a file that no longer has a name and misses
 * every later save of it. A watch on each folder instead sees every name in
 * it created, changed or renamed over, whatever the file's inode.
 */
import { type Dirent, type FSWatcher, readdirSync, watch } from "node:fs";
import path from "node:path";

/** Folders never watched: installed packages and hidden folders (`.git`) change often and are not the bot. */
const skipped = (entry: Dirent) => entry.name === "node_modules" || entry.name.startsWith(".");

function foldersUnder(root: string): string[] {
  const found = [root];
  for (let i = 0; i < found.length; i++) {
    let entries: Dirent[];
    try {
      entries = readdirSync(found[i]!, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) if (entry.isDirectory() && !skipped(entry)) found.push(path.join(found[i]!, entry.name));
  }
  return found;
}

/** Calls `onChange` for every change under `root` (a folder added later is watched too); returns the stop. */
export function watchTree(root: string, onChange: () => void): () => void {
  const watchers = new Map<string, FSWatcher>();
  const unwatch = (folder: string) => {
    watchers.get(folder)?.close();
    watchers.delete(folder);
  };
  const sync = () => {
    const present = new Set(foldersUnder(root));
    for (const folder of watchers.keys()) if (!present.has(folder)) unwatch(folder);
    for (const folder of present) {
      if (watchers.has(folder)) continue;
      try {
        const watcher = watch(folder, () => {
          sync();
          onChange();
        });
        // A folder removed while watched: forget it (the next change resyncs the tree).
        watcher.on("error", () => unwatch(folder));
        watchers.set(folder, watcher);
      } catch {
        // Gone between the listing and the watch.
      }
    }
  };
  sync();
  return () => {
    for (const folder of [...watchers.keys()]) unwatch(folder);
  };
}
