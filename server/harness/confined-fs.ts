/**
 * Opening files beneath a directory so that nothing reached through it can be
 * outside, even while something else swaps its folders for symlinks.
 *
 * Node has no `openat`, so on Linux each step opens
 * `/proc/self/fd/<parent>/<name>`: the kernel resolves the magic link to the
 * directory the parent handle holds (not to a path that may have changed),
 * which makes it an `openat(parent, name)`. Every component is opened with
 * `O_NOFOLLOW`; a symlink met on the way is read and resolved here, against
 * the handles already held, and may never climb above the root. So a path
 * check and the open it guards cannot be separated: there is no check.
 *
 * Without `/proc` (macOS, a container without it) steps go by the real path
 * of the parent, still one `O_NOFOLLOW` component at a time: a folder
 * swapped for a symlink between two steps is caught, one swapped inside the
 * kernel's resolution of a single step is not (see docs/tools.md).
 */
import { constants, existsSync } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readdir, readlink, realpath } from "node:fs/promises";
import path from "node:path";

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;
const MAX_LINK_HOPS = 40;
const PROC_FD = "/proc/self/fd";
const viaProc = process.platform === "linux" && existsSync(PROC_FD);

/** A failure a model can act on, naming the path as it gave it. */
export class ConfinedPathError extends Error {
  constructor(
    message: string,
    readonly code: "outside" | "ENOENT" | "ENOTDIR" | "EISDIR" | "ELOOP" | "not_a_file",
  ) {
    super(message);
    this.name = "ConfinedPathError";
  }
}

/** An open directory beneath the root, with its real path as resolved here. */
export interface HeldDir {
  handle: FileHandle;
  real: string;
  /** Components from the root (`[]` for the root). */
  relative: string[];
}

/** The path that reaches `name` inside `dir` without resolving `dir` again. */
export function childPath(dir: HeldDir, name = ""): string {
  const base = viaProc ? `${PROC_FD}/${dir.handle.fd}` : dir.real;
  return name === "" ? base : `${base}/${name}`;
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** `relative` split into components; `.` and empty ones dropped. */
function components(relative: string): string[] {
  return relative.split(/[\\/]/).filter((part) => part !== "" && part !== ".");
}

export async function openRoot(root: string): Promise<HeldDir> {
  const real = await realpath(root);
  return { handle: await open(real, O_RDONLY | O_DIRECTORY), real, relative: [] };
}

/** Opens `name` in `dir` as a directory, or returns why not (`ELOOP`/`ENOTDIR` when it is a symlink or not a folder). */
export async function openChildDir(dir: HeldDir, name: string): Promise<HeldDir> {
  const handle = await open(childPath(dir, name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  return { handle, real: path.join(dir.real, name), relative: [...dir.relative, name] };
}

/** Opens the non-directory `name` in `dir` without following a link (non-blocking, so a FIFO cannot stall the open). */
export function openChildFile(dir: HeldDir, name: string, flags: number, mode?: number): Promise<FileHandle> {
  return open(childPath(dir, name), flags | O_NOFOLLOW | O_NONBLOCK, mode);
}

export interface OpenBeneathOptions {
  /** How to open the last component when it is not a directory (`O_*` flags; `O_NOFOLLOW` is added). */
  flags?: number;
  mode?: number;
  /** Missing folders on the way are created (for writes). */
  createParents?: boolean;
  /** The last component must be a directory (its `HeldDir` is returned). */
  directory?: boolean;
}

export interface OpenedBeneath {
  /** The file opened (not for `directory`). */
  file?: FileHandle;
  /** The directory holding it, or the directory itself with `directory`. */
  dir: HeldDir;
  /** `/`-separated path from the root to what was opened, symlinks resolved (`.` for the root). */
  relative: string;
}

/**
 * Opens `relative` beneath `root`. Symlinks inside are followed as long as
 * they stay beneath; one that leads out (or `..` above the root) is refused.
 * The caller closes `file` and `dir`.
 */
async function openBeneath(root: string, relative: string, options: OpenBeneathOptions = {}): Promise<OpenedBeneath> {
  const shown = JSON.stringify(relative);
  if (relative.includes("\0")) throw new ConfinedPathError(`path ${shown} contains a NUL byte`, "outside");
  // A workspace not created yet holds nothing: "does not exist", like any missing path.
  const rootDir = await openRoot(root).catch((error: unknown) => {
    throw translate(error, shown);
  });
  const stack: HeldDir[] = [rootDir];
  const closeAbove = async (depth: number) => {
    while (stack.length > depth) await stack.pop()!.handle.close();
  };
  // An absolute path counts when it names a place inside the root (as given or as resolved).
  const absoluteInside = (target: string): string[] => {
    for (const base of new Set([path.resolve(root), rootDir.real])) {
      const inner = path.relative(base, target);
      if (inner === "" || (!inner.startsWith("..") && !path.isAbsolute(inner))) return components(inner);
    }
    throw new ConfinedPathError(`path ${shown} is outside the workspace`, "outside");
  };
  const pending = path.isAbsolute(relative) ? absoluteInside(relative) : components(relative);
  let hops = 0;
  const followLink = async (dir: HeldDir, name: string) => {
    if (++hops > MAX_LINK_HOPS) throw new ConfinedPathError(`path ${shown} has too many symbolic links`, "ELOOP");
    const target = await readlink(childPath(dir, name));
    if (path.isAbsolute(target)) {
      await closeAbove(1);
      pending.unshift(...absoluteInside(target));
    } else {
      pending.unshift(...components(target));
    }
  };
  try {
    while (pending.length > 0) {
      const name = pending.shift()!;
      const dir = stack[stack.length - 1];
      if (name === "..") {
        if (stack.length === 1) throw new ConfinedPathError(`path ${shown} is outside the workspace`, "outside");
        await closeAbove(stack.length - 1);
        continue;
      }
      if (pending.length > 0 || options.directory) {
        const opened = await openDirStep(dir, name, options.createParents === true && pending.length > 0, shown);
        if (opened === "link") await followLink(dir, name);
        else stack.push(opened);
        continue;
      }
      let file: FileHandle;
      try {
        file = await openChildFile(dir, name, options.flags ?? O_RDONLY, options.mode);
      } catch (error) {
        const code = errnoOf(error);
        if ((code === "ELOOP" || code === "EMLINK") && (await lstat(childPath(dir, name))).isSymbolicLink()) {
          await followLink(dir, name);
          continue;
        }
        throw translate(error, shown);
      }
      const stats = await file.stat();
      if (!stats.isFile()) {
        await file.close();
        throw stats.isDirectory()
          ? new ConfinedPathError(`${shown} is a directory`, "EISDIR")
          : new ConfinedPathError(`${shown} is not a regular file`, "not_a_file");
      }
      stack.pop();
      await closeAbove(0);
      return { file, dir, relative: [...dir.relative, name].join("/") };
    }
    if (!options.directory) throw new ConfinedPathError(`${shown} is a directory`, "EISDIR");
    const dir = stack.pop()!;
    await closeAbove(0);
    return { dir, relative: dir.relative.join("/") || "." };
  } catch (error) {
    await closeAbove(0);
    throw error;
  }
}

/** One directory step: the opened folder, or "link" when `name` is a symlink to resolve. */
async function openDirStep(dir: HeldDir, name: string, create: boolean, shown: string): Promise<HeldDir | "link"> {
  for (;;) {
    try {
      return await openChildDir(dir, name);
    } catch (error) {
      const code = errnoOf(error);
      if (code === "ENOENT" && create) {
        await mkdir(childPath(dir, name)).catch((mkdirError) => {
          if (errnoOf(mkdirError) !== "EEXIST") throw translate(mkdirError, shown);
        });
        continue;
      }
      if (code === "ELOOP" || code === "ENOTDIR") {
        const stats = await lstat(childPath(dir, name)).catch(() => undefined);
        if (stats?.isSymbolicLink()) return "link";
        if (stats) throw new ConfinedPathError(`${shown} is not a directory, or lies below a file`, "ENOTDIR");
        continue;
      }
      throw translate(error, shown);
    }
  }
}

function translate(error: unknown, shown: string): Error {
  if (error instanceof ConfinedPathError) return error;
  switch (errnoOf(error)) {
    case "ENOENT":
      return new ConfinedPathError(`${shown} does not exist`, "ENOENT");
    case "ENOTDIR":
      return new ConfinedPathError(`${shown} is not a directory, or lies below a file`, "ENOTDIR");
    case "EISDIR":
      return new ConfinedPathError(`${shown} is a directory`, "EISDIR");
    case "ENXIO":
      return new ConfinedPathError(`${shown} is not a regular file`, "not_a_file");
    case "EACCES":
    case "EPERM":
      return new Error(`${shown} is not accessible`);
    default:
      return error as Error;
  }
}

/** Opens the regular file `relative` beneath `root` (see `openBeneath`); the caller closes it. */
export async function openFileBeneath(
  root: string,
  relative: string,
  options: Omit<OpenBeneathOptions, "directory"> = {},
): Promise<{ file: FileHandle; relative: string }> {
  const opened = await openBeneath(root, relative, options);
  await opened.dir.handle.close();
  return { file: opened.file!, relative: opened.relative };
}

/** Opens the folder `relative` beneath `root` (see `openBeneath`); the caller closes its handle. */
export async function openDirBeneath(root: string, relative: string): Promise<HeldDir> {
  return (await openBeneath(root, relative, { directory: true })).dir;
}

/**
 * Creates or replaces the file `relative` beneath `root` (missing folders
 * created), never writing through a link that leads out. Returns the path it
 * wrote, symlinks resolved; with `onlyIfMissing`, undefined when something
 * is there already.
 */
export async function writeFileBeneath(
  root: string,
  relative: string,
  contents: string | Uint8Array,
  options: { onlyIfMissing?: boolean } = {},
): Promise<string | undefined> {
  await mkdir(root, { recursive: true });
  const { O_WRONLY, O_CREAT, O_TRUNC, O_EXCL } = constants;
  const flags = O_WRONLY | O_CREAT | (options.onlyIfMissing ? O_EXCL : O_TRUNC);
  let opened: Awaited<ReturnType<typeof openFileBeneath>>;
  try {
    opened = await openFileBeneath(root, relative, { flags, mode: 0o666, createParents: true });
  } catch (error) {
    if (options.onlyIfMissing && errnoOf(error) === "EEXIST") return undefined;
    throw error;
  }
  try {
    await opened.file.writeFile(contents);
  } finally {
    await opened.file.close();
  }
  return opened.relative;
}

/** The entries of a held directory, read through its handle. */
export function readHeldDir(dir: HeldDir) {
  return readdir(childPath(dir), { withFileTypes: true });
}
