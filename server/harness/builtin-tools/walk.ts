/**
 * Files below a workspace directory, in name order. Dependency and VCS
 * folders are skipped; symlinked folders are not entered; a symlinked file
 * is listed only when it resolves inside the workspace.
 */
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { resolveInside } from "../workspace.ts";

const SKIPPED_DIRECTORIES = new Set(["node_modules", ".git"]);

export interface WalkedFile {
  absolute: string;
  /** `/`-separated, relative to the directory walked. */
  relative: string;
}

async function isFileInside(workspaceRoot: string, entry: string): Promise<string | undefined> {
  try {
    const target = resolveInside(workspaceRoot, entry);
    return (await stat(target)).isFile() ? target : undefined;
  } catch {
    return undefined;
  }
}

export async function* walkFiles(workspaceRoot: string, directory: string, prefix = ""): AsyncGenerator<WalkedFile> {
  let entries: Dirent[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const absolute = path.join(directory, entry.name);
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) yield* walkFiles(workspaceRoot, absolute, relative);
    } else if (entry.isFile()) {
      yield { absolute, relative };
    } else if (entry.isSymbolicLink()) {
      const target = await isFileInside(workspaceRoot, absolute);
      if (target) yield { absolute: target, relative };
    }
  }
}

/** `absolute` as a `/`-separated path relative to the workspace root (`.` for the root). */
export function workspaceRelative(workspaceRoot: string, absolute: string): string {
  return path.relative(workspaceRoot, absolute).split(path.sep).join("/") || ".";
}
