import { and, eq, lt } from "drizzle-orm";
import type { AsyncRepository } from "../async-store.ts";
import type { IdempotencyRepository } from "../idempotency.ts";
import type { JsonObject } from "../types.ts";
import type { PgContext } from "./context.ts";
import { idempotencyKeys } from "./schema.ts";

export function createPgIdempotencyRepository(ctx: PgContext): AsyncRepository<IdempotencyRepository> {
  const { db } = ctx;
  const byKey = (sessionId: string, key: string) => and(eq(idempotencyKeys.sessionId, sessionId), eq(idempotencyKeys.key, key));
  return {
    async get(sessionId, key) {
      const [row] = await db
        .select({ requestDigest: idempotencyKeys.requestDigest, answer: idempotencyKeys.answer, createdAt: idempotencyKeys.createdAt })
        .from(idempotencyKeys)
        .where(byKey(sessionId, key));
      return row && { ...row, answer: row.answer as JsonObject };
    },

    async put(sessionId, key, requestDigest, answer) {
      await db.insert(idempotencyKeys).values({ sessionId, key, requestDigest, answer, createdAt: ctx.now() });
    },

    async purgeBefore(cutoff) {
      return (await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff))).rowCount ?? 0;
    },
  };
}
