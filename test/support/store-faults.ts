/**
 * Storage failures for tests: a trigger on the state database of a running
 * server (its own connection, as another process would) that refuses every
 * insert into a table, as a full disk or an I/O error would.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { DATABASE_FILE } from "../../server/store/db.ts";

/** Makes inserts into `table` fail until the returned function is called. */
export function refuseInserts(stateRoot: string, table: string): () => void {
  const db = new Database(path.join(stateRoot, DATABASE_FILE));
  db.pragma("busy_timeout = 5000");
  const trigger = `bdk_test_refuse_${table}`;
  db.exec(`CREATE TRIGGER ${trigger} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'disk I/O error (simulated)'); END;`);
  return () => {
    db.exec(`DROP TRIGGER ${trigger}`);
    db.close();
  };
}
