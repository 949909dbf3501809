/**
 * The Postgres tables of the event log slice (issue 16): a session's owner
 * row (lease, fencing token, head of its log) and its events. Plain DDL for
 * now; the full store moves to one drizzle schema per dialect (item 1).
 */
import type pg from "pg";
import { inTransaction } from "./transaction.ts";

const DDL = `
CREATE TABLE IF NOT EXISTS session_owners (
  session_id text PRIMARY KEY,
  holder text NOT NULL,
  token bigint NOT NULL,
  expires_at timestamptz NOT NULL,
  last_index integer NOT NULL DEFAULT -1
);
CREATE TABLE IF NOT EXISTS events (
  session_id text NOT NULL,
  idx integer NOT NULL,
  type text NOT NULL,
  turn_id text,
  at timestamptz NOT NULL,
  data jsonb NOT NULL,
  PRIMARY KEY (session_id, idx)
);
`;

/** An arbitrary constant: nodes opening one database at once create the tables one after the other. */
const MIGRATION_LOCK = 16_0001;

export async function migrate(pool: pg.Pool): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query(DDL);
  });
}
