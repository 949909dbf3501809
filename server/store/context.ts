import type Database from "better-sqlite3";
import type { Db } from "./db.ts";
import type { Transactions } from "./transactions.ts";

/** What every repository is built from; internal to server/store. */
export interface StoreContext {
  db: Db;
  sqlite: Database.Database;
  stateRoot: string;
  /** The store clock as an ISO-8601 string. */
  now: () => string;
  /** Cross-repository transactions and effects that wait for their commit. */
  tx: Transactions;
}
