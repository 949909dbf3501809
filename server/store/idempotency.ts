import { and, eq, lt } from "drizzle-orm";
import type { StoreContext } from "./context.ts";
import { idempotencyKeys } from "./schema.ts";
import type { JsonObject } from "./types.ts";

export interface StoredAnswer {
  requestDigest: string;
  answer: JsonObject;
  createdAt: string;
}

/** Answers given to requests that carried an `Idempotency-Key`, per session. */
export interface IdempotencyRepository {
  get(sessionId: string, key: string): StoredAnswer | undefined;
  put(sessionId: string, key: string, requestDigest: string, answer: JsonObject): void;
  /** Forgets answers stored before `cutoff` (ISO time); returns how many. */
  purgeBefore(cutoff: string): number;
}

export function createIdempotencyRepository(ctx: StoreContext): IdempotencyRepository {
  const { db } = ctx;
  const byKey = (sessionId: string, key: string) => and(eq(idempotencyKeys.sessionId, sessionId), eq(idempotencyKeys.key, key));
  return {
    get(sessionId, key) {
      const row = db
        .select({ requestDigest: idempotencyKeys.requestDigest, answer: idempotencyKeys.answer, createdAt: idempotencyKeys.createdAt })
        .from(idempotencyKeys)
        .where(byKey(sessionId, key))
        .get();
      return row && { ...row, answer: row.answer as JsonObject };
    },

    put(sessionId, key, requestDigest, answer) {
      db.insert(idempotencyKeys).values({ sessionId, key, requestDigest, answer, createdAt: ctx.now() }).run();
    },

    purgeBefore(cutoff) {
      return db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff)).run().changes;
    },
  };
}
