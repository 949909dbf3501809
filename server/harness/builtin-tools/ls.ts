import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { LoadedTool } from "../../load/types.ts";
import { resolveInside } from "../workspace.ts";
import { builtinTool } from "./define.ts";
import { withFsErrors } from "./text-files.ts";

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
    const target = resolveInside(ctx.workspaceDir, directory);
    const names = (await withFsErrors(directory, () => readdir(target))).sort();
    const entries = [];
    for (const name of names.slice(0, MAX_ENTRIES)) {
      const stats = await lstat(path.join(target, name)).catch(() => undefined);
      if (stats) entries.push({ name, type: typeOf(stats), size: stats.size });
    }
    return names.length > MAX_ENTRIES ? { path: directory, entries, truncated: `showing ${MAX_ENTRIES} of ${names.length} entries` } : { path: directory, entries };
  });
}
