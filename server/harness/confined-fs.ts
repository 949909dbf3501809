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
 * Without `/proc` (macOS, a container without it) steps go by the path of
 * the parent, still one `O_NOFOLLOW` component at a time: a folder swapped
 * for a symlink between two steps is caught, one swapped inside the kernel's
 * resolution of a single step is not (see docs/tools.md).
 *
 * The workspace folder's own path is the server's and trusted (a sandboxed
 * command cannot rename it; an unsandboxed one can write anywhere anyway):
 * the first step opens `<workspace>/<name>`, which saves opening the
 * workspace on every call. One tool call is one `withConfinedRoot` scope,
 * which looks the workspace's real path up once, and only when an absolute
 * path has to be compared with it.
 */
import { constants, existsSync } from "node:fs";
import type { Stats } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readdir, readlink, realpath } from "node:fs/promises";
import path from "node:path";

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;
const MAX_LINK_HOPS = 40;
/** Times one step is tried again when its entry keeps changing under it. */
const MAX_STEP_RETRIES = 16;
const PROC_FD = "/proc/self/fd";
const viaProc = process.platform === "linux" && existsSync(PROC_FD);

/** A failure a model can act on, naming the path as it gave it. */
export class ConfinedPathError extends Error {
  constructor(
    message: string,
    readonly code: "outside" | "ENOENT" | "ENOTDIR" | "EISDIR" | "EEXIST" | "ELOOP" | "ENAMETOOLONG" | "not_a_file" | "changing",
  ) {
    super(message);
    this.name = "ConfinedPathError";
  }
}

/** A directory a walk steps from: a held folder beneath the root, or the root, reached by its (trusted) path. */
interface StepDir {
  handle?: FileHandle;
  /** The path it was opened by (root path and components), for the root and for systems without /proc. */
  path: string;
  /** Components from the root (`[]` for the root). */
  relative: string[];
}

/** An open directory beneath the root; the caller that got it closes `handle`. */
export interface HeldDir extends StepDir {
  handle: FileHandle;
}

/** The path that reaches `name` inside `dir` without resolving `dir` again. */
export function childPath(dir: StepDir, name = ""): string {
  const base = viaProc && dir.handle ? `${PROC_FD}/${dir.handle.fd}` : dir.path;
  return name === "" ? base : `${base}/${name}`;
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** What separates path components: `/`, and on Windows `\\` too (on POSIX a backslash is part of a name). */
export const PATH_SEPARATORS = process.platform === "win32" ? /[\\/]/ : /\//;

/** `relative` split into components; `.` and empty ones dropped. */
function components(relative: string): string[] {
  return relative.split(PATH_SEPARATORS).filter((part) => part !== "" && part !== ".");
}

/** Why `relative` names a folder rather than a file (it ends in `/`, `/.` or `/..`), or undefined. */
export function folderSyntaxProblem(relative: string): string | undefined {
  const last = relative.split(PATH_SEPARATORS).at(-1);
  if (last === "") return 'ends with "/", so it names a folder: give the path of a file';
  if (last === "." || last === "..") return "names a folder: give the path of a file";
  return undefined;
}

/** Opens `name` in `dir` as a directory, or returns why not (`ELOOP`/`ENOTDIR` when it is a symlink or not a folder). */
export async function openChildDir(dir: StepDir, name: string): Promise<HeldDir> {
  const handle = await open(childPath(dir, name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  return { handle, path: `${dir.path}/${name}`, relative: [...dir.relative, name] };
}

/** Opens the non-directory `name` in `dir` without following a link (non-blocking, so a FIFO cannot stall the open). */
export function openChildFile(dir: StepDir, name: string, flags: number, mode?: number): Promise<FileHandle> {
  return open(childPath(dir, name), flags | O_NOFOLLOW | O_NONBLOCK, mode);
}

/** A regular file opened beneath the root, with what fstat said of it when it was opened. */
export interface OpenedFile {
  file: FileHandle;
  stats: Stats;
  /** `/`-separated path from the root, symlinks resolved. */
  relative: string;
}

export interface OpenFileOptions {
  /** How to open the file (`O_*` flags; `O_NOFOLLOW` and `O_NONBLOCK` are added). */
  flags?: number;
  mode?: number;
  /** Missing folders on the way are created (for writes). */
  createParents?: boolean;
}

/** `size` bytes of an open file, read in one call where the system allows (the size fstat gave). */
export async function readOpenFile(file: FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await file.read(buffer, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === size ? buffer : buffer.subarray(0, filled);
}

/** The file handle is closed without waiting: nothing depends on it, and a call saves a round trip. */
export function closeSoon(file: FileHandle): void {
  file.close().catch(() => {});
}

/**
 * The workspace as one tool call sees it: every path beneath it opened step
 * by step (see the module comment). A workspace that does not exist yet
 * holds nothing: every path in it "does not exist".
 */
export class ConfinedRoot {
  private realPath: Promise<string> | undefined;
  private readonly dir: StepDir;

  constructor(root: string) {
    this.dir = { path: path.resolve(root), relative: [] };
  }

  /** The real path of the workspace, looked up once (absolute paths may name it either way). */
  private real(): Promise<string> {
    this.realPath ??= realpath(this.dir.path);
    return this.realPath;
  }

  /** The components of `target` below the root, or a refusal when it names a place outside. */
  private async absoluteInside(target: string, shown: string): Promise<string[]> {
    const inside = (base: string) => {
      const inner = path.relative(base, target);
      const climbs = inner === ".." || inner.startsWith(`..${path.sep}`);
      return climbs || path.isAbsolute(inner) ? undefined : components(inner);
    };
    const found = inside(this.dir.path) ?? inside(await this.real());
    if (!found) throw new ConfinedPathError(`path ${shown} is outside the workspace`, "outside");
    return found;
  }

  /**
   * Opens the regular file `relative` beneath the root. Symlinks inside are
   * followed as long as they stay beneath; one that leads out (or `..` above
   * the root) is refused. The caller closes `file`.
   */
  async openFile(relative: string, options: OpenFileOptions = {}): Promise<OpenedFile> {
    const shown = JSON.stringify(relative);
    // Opened for writing, "dir/" would create or replace a file named "dir".
    const folder = writes(options.flags) ? folderSyntaxProblem(relative) : undefined;
    if (folder) throw new ConfinedPathError(`${shown} ${folder}`, "EISDIR");
    const reached = await this.walkTo(relative, shown, options);
    if ("file" in reached) return reached;
    await reached.handle?.close();
    throw new ConfinedPathError(`${shown} is a directory`, "EISDIR");
  }

  /** Opens the folder `relative` beneath the root (the root itself for "."); the caller closes its handle. */
  async openDir(relative: string): Promise<HeldDir> {
    const shown = JSON.stringify(relative);
    const reached = await this.walkTo(relative, shown, { directory: true });
    if (reached.handle) return reached as HeldDir;
    return describing(shown, async () => ({ ...reached, handle: await open(childPath(reached), O_RDONLY | O_DIRECTORY) }));
  }

  /** The contents of the regular file `relative`; `maxBytes` refuses a larger one, naming its size. */
  async readFile(relative: string, maxBytes: number, tooLarge: (size: number) => Error): Promise<Buffer> {
    const { file, stats } = await this.openFile(relative);
    try {
      if (stats.size > maxBytes) throw tooLarge(stats.size);
      return await describing(JSON.stringify(relative), () => readOpenFile(file, stats.size));
    } finally {
      closeSoon(file);
    }
  }

  /**
   * Creates or replaces the file `relative` (missing folders created), never
   * writing through a link that leads out. Returns the path it wrote,
   * symlinks resolved; with `onlyIfMissing`, undefined when something is
   * there already.
   */
  async writeFile(relative: string, contents: string | Uint8Array, options: { onlyIfMissing?: boolean } = {}): Promise<string | undefined> {
    const { O_WRONLY, O_CREAT, O_TRUNC } = constants;
    const opened = options.onlyIfMissing
      ? await this.createFile(relative)
      : await this.openFile(relative, { flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o666, createParents: true });
    if (!opened) return undefined;
    try {
      await describing(JSON.stringify(relative), () => opened.file.writeFile(contents));
    } finally {
      await opened.file.close();
    }
    return opened.relative;
  }

  /**
   * Creates the file `relative` for writing when nothing is there yet
   * (missing folders created, `O_EXCL`): its handle, which the caller
   * closes, or undefined when something (a symlink too) has that name.
   */
  async createFile(relative: string): Promise<OpenedFile | undefined> {
    const { O_WRONLY, O_CREAT, O_EXCL } = constants;
    try {
      return await this.openFile(relative, { flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o666, createParents: true });
    } catch (error) {
      if (errnoOf(error) === "EEXIST") return undefined;
      throw error;
    }
  }

  /**
   * Steps through `relative` from the root: to the open file at its end, or
   * with `directory` to the folder it names.
   */
  private walkTo(relative: string, shown: string, options: { directory: true }): Promise<StepDir>;
  private walkTo(relative: string, shown: string, options: OpenFileOptions): Promise<OpenedFile | StepDir>;
  private async walkTo(relative: string, shown: string, options: OpenFileOptions & { directory?: boolean }): Promise<OpenedFile | StepDir> {
    if (relative.includes("\0")) throw new ConfinedPathError(`path ${shown} contains a NUL byte`, "outside");
    const stack: StepDir[] = [this.dir];
    // The root stays; what was opened on the way is closed here unless it is returned. Not waited for:
    // a closed folder's fd is never named again, so its number coming back for another open is harmless.
    const closeAbove = (depth: number) => {
      while (stack.length > Math.max(depth, 1)) {
        const { handle } = stack.pop()!;
        if (handle) closeSoon(handle);
      }
    };
    let hops = 0;
    let retries = 0;
    try {
      const pending = path.isAbsolute(relative) ? await this.absoluteInside(relative, shown) : components(relative);
      /** Follows the symlink `name`; false when it is no longer one (it changed since the open saw it). */
      const followLink = async (dir: StepDir, name: string): Promise<boolean> => {
        let target: string;
        try {
          target = await readlink(childPath(dir, name));
        } catch (error) {
          if (changedMeanwhile(error)) return false;
          throw error;
        }
        if (++hops > MAX_LINK_HOPS) throw new ConfinedPathError(`path ${shown} has too many symbolic links`, "ELOOP");
        if (path.isAbsolute(target)) {
          closeAbove(1);
          pending.unshift(...(await this.absoluteInside(target, shown)));
        } else {
          pending.unshift(...components(target));
        }
        return true;
      };
      // An entry that changes between two calls of one step (a command swapping it) is stepped again, a few times.
      const again = (name: string) => {
        if (++retries > MAX_STEP_RETRIES) throw new ConfinedPathError(`${shown} kept changing while it was opened; try again`, "changing");
        pending.unshift(name);
      };
      while (pending.length > 0) {
        const name = pending.shift()!;
        const dir = stack[stack.length - 1];
        if (name === "..") {
          if (stack.length === 1) throw new ConfinedPathError(`path ${shown} is outside the workspace`, "outside");
          closeAbove(stack.length - 1);
          continue;
        }
        if (pending.length > 0 || options.directory) {
          const opened = await openDirStep(dir, name, options.createParents === true && pending.length > 0, shown);
          if (opened === "changed" || (opened === "link" && !(await followLink(dir, name)))) {
            again(name);
            continue;
          }
          if (opened !== "link") stack.push(opened);
          retries = 0;
          continue;
        }
        let file: FileHandle;
        try {
          file = await openChildFile(dir, name, options.flags ?? O_RDONLY, options.mode);
        } catch (error) {
          const code = errnoOf(error);
          if (code !== "ELOOP" && code !== "EMLINK") throw error;
          // O_NOFOLLOW met a symlink: resolve it here, unless it is gone or no longer a link.
          const stats = await lstatIfPresent(childPath(dir, name));
          if (!stats?.isSymbolicLink() || !(await followLink(dir, name))) again(name);
          else retries = 0;
          continue;
        }
        const stats = await file.stat().catch(async (error: unknown) => {
          await file.close();
          throw error;
        });
        if (!stats.isFile()) {
          await file.close();
          throw stats.isDirectory()
            ? new ConfinedPathError(`${shown} is a directory`, "EISDIR")
            : new ConfinedPathError(`${shown} is not a regular file`, "not_a_file");
        }
        closeAbove(1);
        return { file, stats, relative: [...dir.relative, name].join("/") };
      }
      // A folder: the caller gets the last one held.
      return stack.length > 1 ? stack.pop()! : this.dir;
    } catch (error) {
      closeAbove(1);
      // Every failure on the way, in the words of the path the caller gave (never a /proc/self/fd path).
      throw describeFsError(error, shown);
    } finally {
      closeAbove(1);
    }
  }
}

/** Runs `use` as one scope of access to the workspace `root`; with `create`, the workspace is made first when missing. */
export async function withConfinedRoot<T>(root: string, use: (confined: ConfinedRoot) => Promise<T>, options: { create?: boolean } = {}): Promise<T> {
  if (options.create) {
    await mkdir(root, { recursive: true }).catch((error: unknown) => {
      // The server's own path is no business of the model's.
      throw new Error(`the workspace could not be created (${errnoOf(error) ?? (error as Error).message})`);
    });
  }
  return use(new ConfinedRoot(root));
}

/** The entries of a held directory, read through its handle. */
export function readHeldDir(dir: StepDir) {
  return readdir(childPath(dir), { withFileTypes: true });
}

/** `run`, with a failure described for the path `shown`. */
async function describing<T>(shown: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw describeFsError(error, shown);
  }
}

function writes(flags: number | undefined): boolean {
  return flags !== undefined && (flags & (constants.O_WRONLY | constants.O_RDWR)) !== 0;
}

/** An error of readlink/lstat that says the entry changed since it was seen (gone, or no longer a link). */
function changedMeanwhile(error: unknown): boolean {
  const code = errnoOf(error);
  return code === "EINVAL" || code === "ENOENT";
}

async function lstatIfPresent(target: string) {
  try {
    return await lstat(target);
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * One directory step: the opened folder, "link" when `name` is a symlink to
 * resolve, or "changed" when it should be stepped again (created just now,
 * or swapped between the open and the look at what failed).
 */
async function openDirStep(dir: StepDir, name: string, create: boolean, shown: string): Promise<HeldDir | "link" | "changed"> {
  try {
    return await openChildDir(dir, name);
  } catch (error) {
    const code = errnoOf(error);
    if (code === "ENOENT" && create) {
      await mkdir(childPath(dir, name)).catch((mkdirError) => {
        if (errnoOf(mkdirError) !== "EEXIST") throw mkdirError;
      });
      return "changed";
    }
    if (code !== "ELOOP" && code !== "ENOTDIR") throw error;
    const stats = await lstatIfPresent(childPath(dir, name));
    if (stats?.isSymbolicLink()) return "link";
    if (stats && !stats.isDirectory()) throw new ConfinedPathError(`${shown} is not a directory, or lies below a file`, "ENOTDIR");
    return "changed";
  }
}

/**
 * `error` as a failure a model can act on, naming the path as it gave it:
 * a system error's own text names the internal path that was opened
 * (`/proc/self/fd/20/name`), which means nothing to the model.
 */
export function describeFsError(error: unknown, shown: string): Error {
  if (error instanceof ConfinedPathError) return error;
  const code = errnoOf(error);
  switch (code) {
    case undefined:
      return error as Error;
    case "ENOENT":
      return new ConfinedPathError(`${shown} does not exist`, "ENOENT");
    case "ENOTDIR":
      return new ConfinedPathError(`${shown} is not a directory, or lies below a file`, "ENOTDIR");
    case "EISDIR":
      return new ConfinedPathError(`${shown} is a directory`, "EISDIR");
    case "EEXIST":
      return new ConfinedPathError(`${shown} already exists`, "EEXIST");
    case "ELOOP":
    case "EMLINK":
      return new ConfinedPathError(`path ${shown} has too many symbolic links`, "ELOOP");
    case "ENAMETOOLONG":
      return new ConfinedPathError(`${shown} has a name longer than the file system allows`, "ENAMETOOLONG");
    case "ENXIO":
      return new ConfinedPathError(`${shown} is not a regular file`, "not_a_file");
    case "EACCES":
    case "EPERM":
      return new Error(`${shown} is not accessible`);
    case "EROFS":
      return new Error(`${shown} is on a read-only file system`);
    case "ENOSPC":
    case "EDQUOT":
      return new Error(`no space left to write ${shown}`);
    default:
      return new Error(`${shown} could not be opened (${code})`);
  }
}

