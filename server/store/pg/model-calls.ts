import { sql } from "drizzle-orm";
import type { AsyncRepository } from "../async-store.ts";
import { foldChains, forkedTurnsJson, type ModelCallChains, type ModelCallsRepository, type StoredRow } from "../model-calls.ts";
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

    async copyToFork(sourceId, forkId, turns) {
      if (turns.length === 0) return 0;
      // SQLite's copy query; `seq` order numbers the fork's rows in the order the source wrote them.
      const result = await db.execute(sql`
        INSERT INTO ${modelCalls} (session_id, turn_id, scope, step, started_at, duration_ms, system, tools, request, response)
        SELECT ${forkId}, t.fork_turn, m.scope, m.step, m.started_at, m.duration_ms, m.system, m.tools, m.request, m.response
        FROM jsonb_to_recordset(${forkedTurnsJson(turns)}::jsonb) AS t(source_turn text, fork_turn text, keeps jsonb)
        JOIN ${modelCalls} m ON m.session_id = ${sourceId} AND m.turn_id = t.source_turn
        WHERE t.keeps IS NULL
           OR (m.scope = '' AND m.step IN (SELECT jsonb_array_elements_text(t.keeps->'steps')::integer))
           OR m.scope IN (SELECT jsonb_array_elements_text(t.keeps->'scopes'))
        ORDER BY m.seq`);
      return result.rowCount ?? 0;
    },
  };
}
