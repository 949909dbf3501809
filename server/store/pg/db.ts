/**
 * Opens a Postgres database for the store and brings its schema up to date
 * (the drizzle-kit migrations beside this module), under an advisory lock so
 * nodes starting together migrate one after the other.
 */
import { fileURLToPath } from "node:url";
import { drizzle, type NodePgQueryResultHKT } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase } from "drizzle-orm/pg-core";
import pg from "pg";
import * as schema from "./schema.ts";

/** The database or a transaction on it: the same query API. */
export type PgDb = PgDatabase<NodePgQueryResultHKT, typeof schema>;

export const PG_MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));

/** An arbitrary constant: the advisory lock the migrations are applied under. */
const MIGRATION_LOCK = 16_0001;

/**
 * One drizzle instance per pool and per connection, kept while it lives:
 * building one walks the whole schema's relations, which cost more CPU than
 * the statements of a short transaction (bench/cluster).
 */
const instances = new WeakMap<pg.Pool | pg.PoolClient, PgDb>();

export function pgDb(client: pg.Pool | pg.PoolClient): PgDb {
  let db = instances.get(client);
  if (!db) {
    db = drizzle({ client, schema });
    instances.set(client, db);
  }
  return db;
}

export async function migratePg(pool: pg.Pool, migrationsFolder = PG_MIGRATIONS_FOLDER): Promise<void> {
  const client = await pool.connect();
  try {
    // A session lock, not a transaction's: drizzle's migrator opens its own transaction on this connection.
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await migrate(pgDb(client), { migrationsFolder });
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
