/**
 * Opens the SQLite file of a state root and brings its schema up to date.
 * Several processes may do this at once on the same file.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "./schema.ts";
import { sqliteErrorCode } from "./sqlite-error.ts";

export type Db = BetterSQLite3Database<typeof schema>;

export const DATABASE_FILE = "bdk.sqlite";
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));
const OPEN_ATTEMPTS = 8;

export interface Connection {
  db: Db;
  sqlite: Database.Database;
}

export function openDatabase(stateRoot: string, migrationsFolder = MIGRATIONS_FOLDER): Connection {
  mkdirSync(stateRoot, { recursive: true });
  const sqlite = new Database(path.join(stateRoot, DATABASE_FILE));
  try {
    // busy_timeout first: switching to WAL and migrating need locks another opener may hold.
    sqlite.pragma("busy_timeout = 5000");
    retryWhileContended(() => sqlite.pragma("journal_mode = WAL"));
    sqlite.pragma("synchronous = NORMAL");
    // Event appends are many small commits: a larger page cache and fewer, larger WAL checkpoints keep them cheap.
    sqlite.pragma("cache_size = -16000");
    sqlite.pragma("wal_autocheckpoint = 4000");
    sqlite.pragma("foreign_keys = ON");
    const db = drizzle(sqlite, { schema });
    // drizzle reads the applied migrations before its own (deferred) BEGIN, so a
    // concurrent opener can apply them in between; ours then fails ("already
    // exists" or busy) and a retry sees them applied and does nothing.
    retryWhileContended(() => migrate(db, { migrationsFolder }));
    return { db, sqlite };
  } catch (error) {
    sqlite.close();
    throw error;
  }
}

function retryWhileContended<T>(run: () => T): T {
  for (let attempt = 1; ; attempt++) {
    try {
      return run();
    } catch (error) {
      if (attempt >= OPEN_ATTEMPTS || sqliteErrorCode(error) === undefined) throw error;
      sleepSync(25 * attempt + Math.random() * 25);
    }
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
