/**
 * Files below a workspace directory, in name order, reached through held
 * directory handles (confined-fs.ts) so a folder swapped for a symlink while
 * the walk runs is skipped, never followed. Dependency and VCS folders and
 * what `.gitignore` files ignore are skipped; symlinked folders are not
 * entered; a symlinked file is listed only when it resolves inside.
 */
import { constants } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import ignore, { type Ignore } from "ignore";
import { type HeldDir, openChildDir, openChildFile, openDirBeneath, openFileBeneath, readHeldDir } from "../confined-fs.ts";

const SKIPPED_DIRECTORIES = new Set(["node_modules", ".git"]);

export interface WalkedFile {
  /** `/`-separated, relative to the directory walked. */
  relative: string;
  /** `/`-separated, relative to the workspace root (symlinked folders on the way resolved). */
  workspacePath: string;
  /** Opens the file for reading (a regular file, never followed out), or undefined when it is gone or changed into something else. */
  open(): Promise<FileHandle | undefined>;
}

/** The rules of one `.gitignore`, for paths below `base` (workspace-relative components). */
interface IgnoreRules {
  base: string[];
  rules: Ignore;
}

async function readGitignore(dir: HeldDir): Promise<IgnoreRules | undefined> {
  let handle: FileHandle | undefined;
  try {
    handle = await openChildFile(dir, ".gitignore", constants.O_RDONLY);
    if (!(await handle.stat()).isFile()) return undefined;
    return { base: dir.relative, rules: ignore().add(await handle.readFile("utf8")) };
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

/** Whether the last rule file that has an opinion on `components` ignores it (deeper files may re-include). */
function isIgnored(ruleSets: IgnoreRules[], components: string[], isDirectory: boolean): boolean {
  let ignored = false;
  for (const { base, rules } of ruleSets) {
    const below = components.slice(base.length).join("/") + (isDirectory ? "/" : "");
    const verdict = rules.test(below);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

/**
 * The `.gitignore` rules of the folders above `start` (root first). A rule
 * set that ignores `start` itself is left out: a folder named explicitly is
 * searched.
 */
async function ancestorRules(root: string, start: string[]): Promise<IgnoreRules[]> {
  const found: IgnoreRules[] = [];
  for (let depth = 0; depth < start.length; depth++) {
    const dir = await openDirBeneath(root, start.slice(0, depth).join("/") || ".").catch(() => undefined);
    if (!dir) continue;
    const rules = await readGitignore(dir);
    await dir.handle.close();
    if (rules && !isIgnored([rules], start, true)) found.push(rules);
  }
  return found;
}

async function openRegularFile(open: () => Promise<FileHandle>): Promise<FileHandle | undefined> {
  const handle = await open().catch(() => undefined);
  if (!handle) return undefined;
  if ((await handle.stat()).isFile()) return handle;
  await handle.close();
  return undefined;
}

async function* walkHeld(root: string, dir: HeldDir, prefix: string, inherited: IgnoreRules[]): AsyncGenerator<WalkedFile> {
  const entries = await readHeldDir(dir).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const own = await readGitignore(dir);
  const ruleSets = own ? [...inherited, own] : inherited;
  for (const entry of entries) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    const components = [...dir.relative, entry.name];
    const workspacePath = components.join("/");
    if (isIgnored(ruleSets, components, entry.isDirectory())) continue;
    if (entry.isDirectory()) {
      if (SKIPPED_DIRECTORIES.has(entry.name)) continue;
      // Swapped for a symlink (or removed) since it was listed: not entered.
      const child = await openChildDir(dir, entry.name).catch(() => undefined);
      if (!child) continue;
      try {
        yield* walkHeld(root, child, relative, ruleSets);
      } finally {
        await child.handle.close();
      }
    } else if (entry.isFile()) {
      // Through the folder's handle while the walk is in it; from the root (confined all the same) once it has moved on.
      const open = () => (dir.handle.fd !== -1 ? openChildFile(dir, entry.name, constants.O_RDONLY) : openFileBeneath(root, workspacePath).then(({ file }) => file));
      yield { relative, workspacePath, open: () => openRegularFile(open) };
    } else if (entry.isSymbolicLink()) {
      const open = async () => (await openFileBeneath(root, workspacePath)).file;
      const resolved = await open().catch(() => undefined);
      if (!resolved) continue;
      await resolved.close();
      yield { relative, workspacePath, open: () => openRegularFile(open) };
    }
  }
}

/** Walks the folder `directory` (workspace-relative) beneath the workspace `root`. */
export async function* walkFiles(root: string, directory: string): AsyncGenerator<WalkedFile> {
  const start = await openDirBeneath(root, directory);
  try {
    yield* walkHeld(root, start, "", await ancestorRules(root, start.relative));
  } finally {
    await start.handle.close();
  }
}
