import { lstat } from "node:fs/promises";
import { z } from "zod";
import type { LoadedTool } from "../../load/types.ts";
import { childPath, openDirBeneath, readHeldDir } from "../confined-fs.ts";
import { builtinTool } from "./define.ts";

const MAX_ENTRIES = 1000;

const schema = z.object({
  path: z.string().optional().describe("Directory relative to the workspace (default: the workspace root)"),
});

type EntryType = "file" | "dir" | "symlink" | "other";

function typeOf(stats: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryType {
  if (stats.isSymbolicLink()) return "symlink";
  if (stats.isDirectory()) return "dir";
  return stats.isFile() ? "file" : "other";
}

export function lsTool(): LoadedTool {
  return builtinTool("ls", "List a workspace directory: each entry's name, type and size in bytes.", schema, async ({ path: directory = "." }, ctx) => {
    const dir = await openDirBeneath(ctx.workspaceDir, directory);
    try {
      const names = (await readHeldDir(dir)).map((entry) => entry.name).sort();
      const entries = [];
      for (const name of names.slice(0, MAX_ENTRIES)) {
        const stats = await lstat(childPath(dir, name)).catch(() => undefined);
        if (stats) entries.push({ name, type: typeOf(stats), size: stats.size });
      }
      return names.length > MAX_ENTRIES ? { path: directory, entries, truncated: `showing ${MAX_ENTRIES} of ${names.length} entries` } : { path: directory, entries };
    } finally {
      await dir.handle.close();
    }
  });
}
