/**
 * Files below a workspace directory, in name order, reached through held
 * directory handles (confined-fs.ts) so a folder swapped for a symlink while
 * the walk runs is skipped, never followed. Dependency and VCS folders and
 * what `.gitignore` files ignore are skipped; symlinked folders are not
 * entered; a symlinked file is listed only when it resolves inside.
 *
 * Files come in runs that share a folder (`WalkedFile[]`): while the
 * consumer works on a run, its folder is held, so opening a file is one
 * open relative to that handle. Once the consumer asks for the next run, a
 * file of an earlier one is opened from the workspace root instead.
 */
import { constants } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import ignore, { type Ignore } from "ignore";
import { type ConfinedRoot, closeSoon, type HeldDir, type OpenedFile, openChildDir, openChildFile, readHeldDir } from "../confined-fs.ts";

const SKIPPED_DIRECTORIES = new Set(["node_modules", ".git"]);

export interface WalkedFile {
  /** `/`-separated, relative to the directory walked. */
  relative: string;
  /** `/`-separated, relative to the workspace root (symlinked folders on the way resolved). */
  workspacePath: string;
  /** Opens the file for reading (a regular file, never followed out), or undefined when it is gone or changed into something else. */
  open(): Promise<OpenedFile | undefined>;
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
    if (handle) closeSoon(handle);
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
async function ancestorRules(root: ConfinedRoot, start: string[]): Promise<IgnoreRules[]> {
  const found: IgnoreRules[] = [];
  for (let depth = 0; depth < start.length; depth++) {
    const dir = await root.openDir(start.slice(0, depth).join("/") || ".").catch(() => undefined);
    if (!dir) continue;
    const rules = await readGitignore(dir);
    await dir.handle.close();
    if (rules && !isIgnored([rules], start, true)) found.push(rules);
  }
  return found;
}

/** A file opened from the workspace root, or undefined when it is not (or no longer) a regular file inside. */
function openFromRoot(root: ConfinedRoot, workspacePath: string): Promise<OpenedFile | undefined> {
  return root.openFile(workspacePath).catch(() => undefined);
}

/** Opens `name` in the held folder `dir` as a regular file, or undefined. */
async function openInFolder(dir: HeldDir, name: string, workspacePath: string): Promise<OpenedFile | undefined> {
  const file = await openChildFile(dir, name, constants.O_RDONLY).catch(() => undefined);
  if (!file) return undefined;
  const stats = await file.stat().catch(() => undefined);
  if (stats?.isFile()) return { file, stats, relative: workspacePath };
  closeSoon(file);
  return undefined;
}

async function* walkHeld(root: ConfinedRoot, dir: HeldDir, prefix: string, inherited: IgnoreRules[]): AsyncGenerator<WalkedFile[]> {
  const entries = await readHeldDir(dir).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const own = await readGitignore(dir);
  const ruleSets = own ? [...inherited, own] : inherited;
  // Files of the run being built; `held` says whether the consumer is still on it.
  let run: WalkedFile[] = [];
  let held = true;
  const handOver = async function* () {
    if (run.length === 0) return;
    const current = run;
    run = [];
    held = true;
    yield current;
    held = false;
  };
  for (const entry of entries) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    const components = [...dir.relative, entry.name];
    const workspacePath = components.join("/");
    if (isIgnored(ruleSets, components, entry.isDirectory())) continue;
    if (entry.isDirectory()) {
      if (SKIPPED_DIRECTORIES.has(entry.name)) continue;
      yield* handOver();
      // Swapped for a symlink (or removed) since it was listed: not entered.
      const child = await openChildDir(dir, entry.name).catch(() => undefined);
      if (!child) continue;
      try {
        yield* walkHeld(root, child, relative, ruleSets);
      } finally {
        await child.handle.close();
      }
    } else if (entry.isFile()) {
      const name = entry.name;
      // `held` is read when the file is opened: a run the consumer left behind opens from the root.
      run.push({ relative, workspacePath, open: () => (held ? openInFolder(dir, name, workspacePath) : openFromRoot(root, workspacePath)) });
    } else if (entry.isSymbolicLink()) {
      const resolved = await openFromRoot(root, workspacePath);
      if (!resolved) continue;
      closeSoon(resolved.file);
      run.push({ relative, workspacePath, open: () => openFromRoot(root, workspacePath) });
    }
  }
  yield* handOver();
}

/** Walks the folder `directory` (workspace-relative) beneath the workspace `root`, one run of files of a folder at a time. */
export async function* walkFolders(root: ConfinedRoot, directory: string): AsyncGenerator<WalkedFile[]> {
  const start = await root.openDir(directory);
  try {
    yield* walkHeld(root, start, "", await ancestorRules(root, start.relative));
  } finally {
    await start.handle.close();
  }
}
