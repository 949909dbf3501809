import { and, eq, getTableColumns, sql } from "drizzle-orm";
import type { AsyncRepository } from "../async-store.ts";
import { inDoubtWritesWhere, toRow, type ToolCallKey, type ToolCallsRepository } from "../tool-calls.ts";
import type { PgContext } from "./context.ts";
import { sessions, toolCalls } from "./schema.ts";

// The row as both dialects store it; `seq` only orders (SQLite's rowid).
const { seq, ...rowColumns } = getTableColumns(toolCalls);

export function createPgToolCallsRepository(ctx: PgContext): AsyncRepository<ToolCallsRepository> {
  const { db } = ctx;
  const byKey = (key: ToolCallKey) =>
    and(eq(toolCalls.sessionId, key.sessionId), eq(toolCalls.turnId, key.turnId), eq(toolCalls.toolCallId, key.toolCallId));
  const started = (key: ToolCallKey) => and(byKey(key), eq(toolCalls.status, "started"));
  return {
    async start(call) {
      const result = await db
        .insert(toolCalls)
        .values({ ...call, input: call.input ?? null, status: "started", startedAt: ctx.now() })
        .onConflictDoNothing();
      return result.rowCount === 1;
    },

    async finish(key, outcome) {
      const status = outcome.stillRunning ? "in_doubt" : "finished";
      await db.update(toolCalls).set({ status, outcome, endedAt: ctx.now() }).where(started(key));
    },

    async get(key) {
      const [row] = await db.select(rowColumns).from(toolCalls).where(byKey(key));
      return row && toRow(row);
    },

    async ofTurn(sessionId, turnId) {
      const rows = await db
        .select(rowColumns)
        .from(toolCalls)
        .where(and(eq(toolCalls.sessionId, sessionId), eq(toolCalls.turnId, turnId)))
        .orderBy(seq);
      return rows.map(toRow);
    },

    async markInDoubt(key) {
      await db.update(toolCalls).set({ status: "in_doubt" }).where(started(key));
    },

    async resolveInDoubt(sessionId, toolCallId) {
      const [row] = await db
        .update(toolCalls)
        .set({ status: "resolved", endedAt: ctx.now() })
        .where(and(eq(toolCalls.sessionId, sessionId), eq(toolCalls.toolCallId, toolCallId), eq(toolCalls.status, "in_doubt")))
        .returning(rowColumns);
      return row && toRow(row);
    },

    async listInDoubtWrites(filter = {}) {
      const rows = await db
        .select(rowColumns)
        .from(toolCalls)
        .innerJoin(sessions, eq(sessions.id, toolCalls.sessionId))
        .where(inDoubtWritesWhere(toolCalls, sessions, filter.principal))
        .orderBy(toolCalls.startedAt, sql`${toolCalls.toolCallId} COLLATE "C"`);
      return rows.map(toRow);
    },
  };
}
