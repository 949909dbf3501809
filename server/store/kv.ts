import { and, asc, eq, gte, sql } from "drizzle-orm";
import type { StoreContext } from "./context.ts";
import { kv } from "./schema.ts";
import type { JsonValue, KvEntry } from "./types.ts";

/** Durable per-agent key/value (`host.kv`), shared across sessions. */
export interface KvRepository {
  get(agent: string, key: string): JsonValue | undefined;
  put(agent: string, key: string, value: JsonValue): void;
  /** Stores `value` unless `key` exists: true when this call stored it (of two racing claims, on any node, one wins). */
  claim(agent: string, key: string, value: JsonValue): boolean;
  delete(agent: string, key: string): boolean;
  /** Ordered by key. */
  list(agent: string, prefix?: string): KvEntry[];
}

export function createKvRepository(ctx: StoreContext): KvRepository {
  const { db } = ctx;
  const byKey = (agent: string, key: string) => and(eq(kv.agent, agent), eq(kv.key, key));
  return {
    get(agent, key) {
      const row = db.select({ value: kv.value }).from(kv).where(byKey(agent, key)).get();
      return row ? (row.value as JsonValue) : undefined;
    },

    put(agent, key, value) {
      // JSON text is written explicitly so a JSON `null` is stored as "null", not as SQL NULL.
      const json = sql`${JSON.stringify(value)}`;
      const updatedAt = ctx.now();
      db.insert(kv)
        .values({ agent, key, value: json, updatedAt })
        .onConflictDoUpdate({ target: [kv.agent, kv.key], set: { value: json, updatedAt } })
        .run();
    },

    claim(agent, key, value) {
      const inserted = db
        .insert(kv)
        .values({ agent, key, value: sql`${JSON.stringify(value)}`, updatedAt: ctx.now() })
        .onConflictDoNothing()
        .run();
      return inserted.changes === 1;
    },

    delete(agent, key) {
      return db.delete(kv).where(byKey(agent, key)).run().changes === 1;
    },

    list(agent, prefix = "") {
      return db
        .select({ key: kv.key, value: kv.value, updatedAt: kv.updatedAt })
        .from(kv)
        .where(and(eq(kv.agent, agent), gte(kv.key, prefix), sql`substr(${kv.key}, 1, length(${prefix})) = ${prefix}`))
        .orderBy(asc(kv.key))
        .all()
        .map((r) => ({ key: r.key, value: r.value as JsonValue, updatedAt: r.updatedAt }));
    },
  };
}
