import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { DATABASE_FILE, MIGRATIONS_FOLDER, openDatabase } from "./db.ts";
import { readTrace, traceFile } from "./trace.ts";
import { tempRoots } from "./testing/temp-root.ts";

const run = promisify(execFile);
const roots = tempRoots();
afterEach(() => roots.cleanup());

/** Every migration the kit ships is applied exactly once. */
const MIGRATION_COUNT = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).length;

const TABLES = [
  "approvals",
  "artifacts",
  "eval_cases",
  "eval_runs",
  "events",
  "idempotency_keys",
  "kv",
  "leases",
  "logs",
  "memory_notes",
  "model_calls",
  "reminders",
  "schedule_ticks",
  "sessions",
  "tool_calls",
  "turns",
];

function inspect(stateRoot: string) {
  const db = new Database(path.join(stateRoot, DATABASE_FILE), { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' ORDER BY name")
      .pluck()
      .all();
    const migrations = db.prepare("SELECT count(*) FROM __drizzle_migrations").pluck().get();
    return { tables, migrations, journal: db.pragma("journal_mode", { simple: true }) };
  } finally {
    db.close();
  }
}

describe("openStore", () => {
  it("creates the state root and applies the migrations", () => {
    const stateRoot = path.join(roots.root(), "nested", "state");
    roots.open(stateRoot).close();
    expect(existsSync(path.join(stateRoot, DATABASE_FILE))).toBe(true);
    const state = inspect(stateRoot);
    expect(state.tables).toEqual(TABLES);
    expect(state.migrations).toBe(MIGRATION_COUNT);
  });

  it("reopens an existing database without reapplying migrations, keeping its rows", () => {
    const stateRoot = roots.root();
    const first = roots.open(stateRoot);
    first.kv.put("agent", "k", 1);
    first.close();
    const second = roots.open(stateRoot);
    expect(second.kv.get("agent", "k")).toBe(1);
    expect(inspect(stateRoot).migrations).toBe(MIGRATION_COUNT);
  });

  it("upgrades a state root written by an earlier version: the new migrations apply, the rows stay", () => {
    const stateRoot = roots.root();
    const firstOnly = mkdtempSync(path.join(tmpdir(), "bdk-migrations-"));
    cpSync(MIGRATIONS_FOLDER, firstOnly, { recursive: true });
    const journalFile = path.join(firstOnly, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: unknown[] };
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, 1) }));
    // The earlier version's schema (its first migration), with a row in it.
    const old = openDatabase(stateRoot, firstOnly);
    old.sqlite.prepare("INSERT INTO kv (agent, key, value, updated_at) VALUES ('agent', 'k', '\"kept\"', 'then')").run();
    old.sqlite.close();
    expect(inspect(stateRoot)).toMatchObject({ migrations: 1 });
    expect(inspect(stateRoot).tables).not.toContain("memory_notes");

    const upgraded = roots.open(stateRoot);
    expect(upgraded.kv.get("agent", "k")).toBe("kept");
    expect(inspect(stateRoot)).toMatchObject({ tables: TABLES, migrations: MIGRATION_COUNT });
    rmSync(firstOnly, { recursive: true, force: true });
  });

  it("runs in WAL mode with foreign keys on", () => {
    const stateRoot = roots.root();
    const store = roots.open(stateRoot);
    expect(inspect(stateRoot).journal).toBe("wal");
    expect(() =>
      store.turns.create({ sessionId: "ses_missing", message: "hi" }),
    ).toThrow(/FOREIGN KEY/);
  });

  it("lets several processes open one fresh state root at once and append without gaps", async () => {
    const stateRoot = roots.root();
    const worker = path.join(import.meta.dirname, "testing", "append-worker.ts");
    const perWorker = 150;
    const startAt = String(Date.now() + 1500);
    await Promise.all(
      [1, 2, 3].map(() =>
        run(process.execPath, ["--import", "tsx", worker, stateRoot, "ses_shared", String(perWorker), startAt]),
      ),
    );
    const store = roots.open(stateRoot);
    const events = store.events.list("ses_shared");
    expect(events.map((e) => e.index)).toEqual([...Array(3 * perWorker).keys()]);
    expect(store.events.lastIndex("ses_shared")).toBe(3 * perWorker - 1);
    expect(readTrace(traceFile(stateRoot, "ses_shared"))).toEqual(events);
    expect(inspect(stateRoot).migrations).toBe(MIGRATION_COUNT);
  });

  it("retries when another process applies the migrations while it waits for the lock", async () => {
    const stateRoot = roots.root();
    const other = new Database(path.join(stateRoot, DATABASE_FILE));
    other.pragma("journal_mode = WAL");
    // drizzle's bookkeeping table exists but is empty: the worker reads "nothing applied",
    // then blocks on our write lock, then finds the tables created by us.
    other.exec("CREATE TABLE __drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)");
    other.exec("BEGIN IMMEDIATE");
    const worker = path.join(import.meta.dirname, "testing", "append-worker.ts");
    const child = run(process.execPath, ["--import", "tsx", worker, stateRoot, "ses_late", "5"]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const migration of readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER })) {
      for (const statement of migration.sql) other.exec(statement);
      other
        .prepare("INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)")
        .run(migration.hash, migration.folderMillis);
    }
    other.exec("COMMIT");
    other.close();
    await child;
    const store = roots.open(stateRoot);
    expect(store.events.lastIndex("ses_late")).toBe(4);
    expect(inspect(stateRoot).migrations).toBe(MIGRATION_COUNT);
  });
});
