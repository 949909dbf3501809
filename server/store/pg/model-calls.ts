import { sql } from "drizzle-orm";
import type { AsyncRepository } from "../async-store.ts";
import { foldChains, type ModelCallChains, type ModelCallsRepository, type StoredRow } from "../model-calls.ts";
import type { PgContext } from "./context.ts";
import { modelCalls } from "./schema.ts";

/** `chains` outlives a transaction's repositories: it is the node's memory of what each chain last stored. */
export function createPgModelCallsRepository(ctx: PgContext, chains: ModelCallChains): AsyncRepository<ModelCallsRepository> {
  const { db } = ctx;
  return {
    async append(sessionId, turnId, scope, record) {
      const { row, stored } = chains.encode(sessionId, scope, record);
      const result = await db
        .insert(modelCalls)
        .values({ sessionId, turnId, scope, ...row })
        .onConflictDoNothing();
      if (result.rowCount !== 1) return false;
      // A row rolled back with its transaction must not become the base of the chain's next row.
      ctx.afterCommit(stored);
      return true;
    },

    async ofTurns(sessionId, turnIds) {
      if (turnIds.length === 0) return [];
      const turns = sql.join(
        turnIds.map((turnId) => sql`${turnId}`),
        sql`, `,
      );
      // The same chain query as SQLite's, ordered by `seq` where SQLite has its rowid.
      const result = await db.execute<StoredRow>(sql`
        WITH wanted AS (SELECT seq, scope FROM ${modelCalls} WHERE session_id = ${sessionId} AND turn_id IN (${turns}))
        SELECT turn_id, scope, step, started_at, duration_ms, system, tools, request, response FROM ${modelCalls}
        WHERE session_id = ${sessionId}
          AND (scope = '' OR scope IN (SELECT scope FROM wanted))
          AND seq <= (SELECT max(seq) FROM wanted)
        ORDER BY seq`);
      return foldChains(result.rows, turnIds);
    },
  };
}
