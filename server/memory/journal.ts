/**
 * The memory journal: one JSON line per completed turn, shared by every
 * session of the agent, so the model can read or grep
 * `memory/journal.jsonl` in its workspace for earlier conversations.
 *
 * The journal of record lives in the agent's state (`<state root>/memory/`);
 * each session workspace gets its own copies of the live and rotated files
 * before its turn. Copies, never hard links: a link shares the inode, so a
 * session's tools writing its `memory/journal-3.jsonl` would rewrite the
 * file of record and every other session's view of it. Appends go through one queue per journal: records
 * finishing at once are written whole, one after the other.
 */
import { constants } from "node:fs";
import { appendFile, copyFile, link, lstat, mkdir, readdir, rm, stat, unlink } from "node:fs/promises";
import path from "node:path";

export const JOURNAL_FOLDER = "memory";
export const ACTIVE_JOURNAL = "journal.jsonl";
const ROTATED = /^journal-(\d+)\.jsonl$/;

export interface JournalRecord {
  at: string;
  sessionId: string;
  turnId: string;
  message: string;
  reply: string;
}

export interface JournalLimits {
  /** The live file is rotated to `journal-<n>.jsonl` before it would grow past this. */
  maxBytes: number;
  /** Rotated files kept (the oldest go first). */
  keepRotated: number;
  /** Longer messages and replies are cut, so one line stays readable in a grep. */
  maxFieldChars: number;
}

export const DEFAULT_JOURNAL_LIMITS: JournalLimits = { maxBytes: 2 * 1024 * 1024, keepRotated: 20, maxFieldChars: 20_000 };

function clipped(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [cut at ${max} characters]` : text;
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

async function rotatedNumbers(dir: string): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  return names
    .map((name) => ROTATED.exec(name)?.[1])
    .filter((number): number is string => number !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

const rotatedName = (number: number) => `journal-${number}.jsonl`;

export class MemoryJournal {
  private queue: Promise<void> = Promise.resolve();

  /** `dir`: where the journal of record lives; `onError`: how a failed write is reported (it never fails a turn). */
  constructor(
    readonly dir: string,
    private readonly onError: (error: unknown) => void,
    private readonly limits: JournalLimits = DEFAULT_JOURNAL_LIMITS,
  ) {}

  /** Queues one record; resolves when it is written (or its failure reported). */
  append(record: JournalRecord): Promise<void> {
    const line = `${JSON.stringify({
      ...record,
      message: clipped(record.message, this.limits.maxFieldChars),
      reply: clipped(record.reply, this.limits.maxFieldChars),
    })}\n`;
    this.queue = this.queue.then(() => this.write(line)).catch(this.onError);
    return this.queue;
  }

  /** Settles when every queued record is written. */
  idle(): Promise<void> {
    return this.queue;
  }

  private async write(line: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const active = path.join(this.dir, ACTIVE_JOURNAL);
    const size = await sizeOf(active);
    if (size > 0 && size + Buffer.byteLength(line) > this.limits.maxBytes) await this.rotate(active);
    // One write with O_APPEND: a record is never interleaved with another process's.
    await appendFile(active, line, { flag: "a" });
  }

  /** The live file becomes `journal-<n+1>.jsonl` (a link never replaces a file another writer rotated). */
  private async rotate(active: string): Promise<void> {
    const numbers = await rotatedNumbers(this.dir);
    for (let number = (numbers.at(-1) ?? 0) + 1; ; number++) {
      try {
        await link(active, path.join(this.dir, rotatedName(number)));
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    }
    await unlink(active);
    const kept = await rotatedNumbers(this.dir);
    for (const number of kept.slice(0, Math.max(0, kept.length - this.limits.keepRotated))) {
      await rm(path.join(this.dir, rotatedName(number)), { force: true });
    }
  }

  /**
   * Brings `<workspace>/memory/` up to date: a fresh copy of the live file,
   * the rotated files copied once, the ones rotated away removed.
   */
  async shareInto(workspaceDir: string): Promise<void> {
    await this.queue;
    const target = path.join(workspaceDir, JOURNAL_FOLDER);
    const numbers = await rotatedNumbers(this.dir);
    const active = path.join(this.dir, ACTIVE_JOURNAL);
    const hasActive = (await sizeOf(active)) > 0;
    if (!hasActive && numbers.length === 0) return;
    await ownFolder(target);
    // Just rotated: the workspace's copy of the live file is now a rotated file, copied below.
    if (hasActive) await copyInto(active, path.join(target, ACTIVE_JOURNAL));
    else await rm(path.join(target, ACTIVE_JOURNAL), { force: true });
    const present = new Set(await rotatedNumbers(target));
    for (const number of numbers) {
      if (present.delete(number)) continue;
      await copyInto(path.join(this.dir, rotatedName(number)), path.join(target, rotatedName(number)));
    }
    for (const gone of present) await rm(path.join(target, rotatedName(gone)), { force: true });
  }
}

/** `<workspace>/memory` as a real folder: one the session swapped for a symlink (or a file) is replaced, so copies land in the workspace. */
async function ownFolder(folder: string): Promise<void> {
  const stats = await lstat(folder).catch(() => undefined);
  if (stats && !stats.isDirectory()) await rm(folder, { force: true, recursive: true });
  await mkdir(folder, { recursive: true });
}

/**
 * A new file with `from`'s bytes at `to`: whatever the session left there (a
 * symlink leading out, a hard link to another file) is removed, not written
 * through, and the copy is created exclusively so nothing put there meanwhile
 * is followed either.
 */
async function copyInto(from: string, to: string): Promise<void> {
  await rm(to, { force: true, recursive: true });
  await copyFile(from, to, constants.COPYFILE_EXCL);
}
