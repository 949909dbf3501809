import { eq, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./db.ts";

/**
 * Row updates by id with a prepared statement per set of changed columns:
 * built once, then reused, so a hot update costs a bind and a step instead
 * of query building and an SQLite prepare on every call.
 */
export function preparedUpdates<Row>(db: Db, table: SQLiteTable, idColumn: SQLiteColumn) {
  const statements = new Map<string, { all(values: Record<string, unknown>): unknown[] }>();
  return (id: string, patch: Record<string, unknown>): Row | undefined => {
    const keys = Object.keys(patch).filter((key) => patch[key] !== undefined).sort();
    const signature = keys.join(",");
    let statement = statements.get(signature);
    if (!statement) {
      const set = Object.fromEntries(keys.map((key) => [key, sql.placeholder(key)]));
      statement = db.update(table).set(set).where(eq(idColumn, sql.placeholder("rowId"))).returning().prepare() as never;
      statements.set(signature, statement!);
    }
    const values: Record<string, unknown> = { rowId: id };
    for (const key of keys) values[key] = patch[key];
    return statement!.all(values)[0] as Row | undefined;
  };
}

/** An insert of every column as a prepared statement with placeholders. */
export function preparedInsert<Row>(db: Db, table: SQLiteTable, columns: readonly string[]) {
  const values = Object.fromEntries(columns.map((column) => [column, sql.placeholder(column)]));
  const statement = db.insert(table).values(values as never).returning().prepare() as unknown as {
    all(values: Record<string, unknown>): unknown[];
  };
  return (row: Record<string, unknown>): Row => statement.all(row)[0] as Row;
}
