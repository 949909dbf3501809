import { and, asc, eq, sql } from "drizzle-orm";
import type { AsyncRepository } from "../async-store.ts";
import type { KvRepository } from "../kv.ts";
import type { JsonValue } from "../types.ts";
import type { PgContext } from "./context.ts";
import { kv } from "./schema.ts";

export function createPgKvRepository(ctx: PgContext): AsyncRepository<KvRepository> {
  const { db } = ctx;
  const byKey = (agent: string, key: string) => and(eq(kv.agent, agent), eq(kv.key, key));
  return {
    async get(agent, key) {
      const [row] = await db.select({ value: kv.value }).from(kv).where(byKey(agent, key));
      return row ? (row.value as JsonValue) : undefined;
    },

    async put(agent, key, value) {
      // Cast from JSON text so a JSON `null` is stored as jsonb 'null', not as SQL NULL.
      const json = sql`${JSON.stringify(value)}::jsonb`;
      const updatedAt = ctx.now();
      await db
        .insert(kv)
        .values({ agent, key, value: json, updatedAt })
        .onConflictDoUpdate({ target: [kv.agent, kv.key], set: { value: json, updatedAt } });
    },

    async claim(agent, key, value) {
      // A racing claim of another transaction makes this insert wait for its outcome: committed, this one stores nothing.
      const inserted = await db
        .insert(kv)
        .values({ agent, key, value: sql`${JSON.stringify(value)}::jsonb`, updatedAt: ctx.now() })
        .onConflictDoNothing();
      return inserted.rowCount === 1;
    },

    async delete(agent, key) {
      return (await db.delete(kv).where(byKey(agent, key))).rowCount === 1;
    },

    async list(agent, prefix = "") {
      const rows = await db
        .select({ key: kv.key, value: kv.value, updatedAt: kv.updatedAt })
        .from(kv)
        // starts_with, not LIKE: the prefix is taken literally; COLLATE "C" orders by code point as SQLite does.
        .where(and(eq(kv.agent, agent), sql`starts_with(${kv.key}, ${prefix})`))
        .orderBy(asc(sql`${kv.key} COLLATE "C"`));
      return rows.map((r) => ({ key: r.key, value: r.value as JsonValue, updatedAt: r.updatedAt }));
    },
  };
}
