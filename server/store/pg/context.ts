import type pg from "pg";
import type { PgDb } from "./db.ts";

/** What every Postgres repository is built from; internal to server/store/pg. */
export interface PgContext {
  /** The pool, or the connection of the transaction these repositories run in. */
  db: PgDb;
  /** The same, as the driver's: for the hot-path statements sent as prepared ones (a name, a fixed text). */
  client: pg.Pool | pg.PoolClient;
  /** The store clock as an ISO-8601 string. */
  now: () => string;
  /** Runs `effect` once the transaction these repositories run in commits (at once on the pool); dropped on rollback. */
  afterCommit(effect: () => void): void;
}

/** Postgres error code (`23505` unique violation, ...) of a driver error, also when drizzle wrapped it. */
export function pgErrorCode(error: unknown): string | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
