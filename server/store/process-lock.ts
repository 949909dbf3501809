/**
 * Whether the process behind a lease holder is still alive. Each process
 * that holds leases keeps an exclusive SQLite lock on its own file,
 * `<stateRoot>/holders/<holder>.lock`, for as long as it runs; the kernel
 * drops the lock the moment the process dies (`kill -9` included). A lock
 * another process can take therefore belongs to a dead holder. This works
 * across PID namespaces and containers sharing the state root, where pids
 * mean nothing, on any filesystem SQLite itself supports.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import { sqliteErrorCode } from "./sqlite-error.ts";

export const HOLDERS_DIR = "holders";
const LOCK_SUFFIX = ".lock";

export interface ProcessLock {
  readonly holder: string;
  /** Drops the lock and removes its file (a clean exit). */
  release(): void;
}

function lockFile(stateRoot: string, holder: string): string {
  return path.join(stateRoot, HOLDERS_DIR, `${holder}${LOCK_SUFFIX}`);
}

/**
 * Every lock this process holds. A lock must outlive whatever object asked
 * for it: a connection that only a dropped store referenced is garbage
 * collected, and better-sqlite3 closes it, dropping the lock while the
 * process still runs (seen: a holder whose store went out of scope read as
 * dead within milliseconds of a forced collection).
 */
const heldLocks = new Set<Database.Database>();

/** Holder ids this module makes, and so can check: host, pid and a random part, file-name safe. */
const CHECKABLE = /^[A-Za-z0-9.-]{1,64}_\d+_[0-9a-f]{8}$/;

/** A new holder id for this process, locked until `release` or the process's end. */
export function takeProcessLock(stateRoot: string): ProcessLock {
  const host = hostname().replace(/[^A-Za-z0-9.-]/g, "-").slice(0, 64) || "host";
  const holder = `${host}_${process.pid}_${randomBytes(4).toString("hex")}`;
  const file = lockFile(stateRoot, holder);
  // Locked under a name nobody probes, then renamed (the lock stays with the file): a probe never finds it unlocked.
  const pending = `${file}.pending`;
  mkdirSync(path.dirname(file), { recursive: true });
  const lock = new Database(pending);
  try {
    // Exclusive locking mode keeps the lock after the transaction; the transaction is never ended anyway.
    lock.pragma("locking_mode = EXCLUSIVE");
    // No rollback journal: nothing is ever written, and SQLite would keep `<name>.pending-journal` open under
    // the name it had before the rename, a file a `kill -9` leaves behind that nobody sweeps.
    lock.pragma("journal_mode = OFF");
    lock.exec("BEGIN EXCLUSIVE");
    renameSync(pending, file);
    heldLocks.add(lock);
  } catch (error) {
    lock.close();
    rmSync(pending, { force: true });
    throw error;
  }
  return {
    holder,
    release() {
      heldLocks.delete(lock);
      if (lock.open) lock.close();
      rmSync(file, { force: true });
    },
  };
}

/**
 * `true` while the holder's process runs, `false` once it has died (its lock
 * is free), `undefined` for a holder without a lock file to check (another
 * kind of holder, or one already swept): leave those to their lease's expiry.
 */
export function isHolderAlive(stateRoot: string, holder: string): boolean | undefined {
  if (!CHECKABLE.test(holder)) return undefined;
  const file = lockFile(stateRoot, holder);
  if (!existsSync(file)) return undefined;
  let probe: Database.Database | undefined;
  try {
    probe = new Database(file, { fileMustExist: true, timeout: 0 });
    probe.exec("BEGIN IMMEDIATE");
    probe.exec("ROLLBACK");
    return false;
  } catch (error) {
    if (sqliteErrorCode(error)?.startsWith("SQLITE_BUSY")) return true;
    return undefined;
  } finally {
    probe?.close();
  }
}

/** Removes a dead holder's lock file (after its leases were given up), and any journal SQLite left next to it. */
export function removeDeadHolder(stateRoot: string, holder: string): void {
  const file = lockFile(stateRoot, holder);
  // Earlier versions locked with a rollback journal, which a killed process left as `<lock>.pending-journal`.
  for (const leftover of [file, `${file}.pending-journal`, `${file}-journal`]) rmSync(leftover, { force: true });
}

/** Holders with a lock file under the state root (alive or not). */
export function listHolders(stateRoot: string): string[] {
  let names: string[];
  try {
    names = readdirSync(path.join(stateRoot, HOLDERS_DIR));
  } catch {
    return [];
  }
  return names.filter((name) => name.endsWith(LOCK_SUFFIX)).map((name) => name.slice(0, -LOCK_SUFFIX.length));
}
