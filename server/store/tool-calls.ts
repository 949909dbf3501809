import { and, type Column, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { Principal } from "../protocol/events.ts";
import type { StoreContext } from "./context.ts";
import { visibleOf } from "./owned-by.ts";
import { sessions, toolCalls } from "./schema.ts";
import type { ToolCallOutcome, ToolCallRow } from "./types.ts";

export interface ToolCallKey {
  sessionId: string;
  turnId: string;
  toolCallId: string;
}

export interface ToolCallStart extends ToolCallKey {
  name: string;
  effect: "read" | "write";
  input: unknown;
}

/** The side-effect ledger: what each tool call of a turn did, so a crash never makes one run twice. */
export interface ToolCallsRepository {
  /** Records a call about to run; false (and nothing changed) when the call is already recorded. */
  start(call: ToolCallStart): boolean;
  /** Records what a started call returned; a call left running (`stillRunning`) stays in doubt. */
  finish(key: ToolCallKey, outcome: ToolCallOutcome): void;
  get(key: ToolCallKey): ToolCallRow | undefined;
  /** Every recorded call of a turn, in the order they started. */
  ofTurn(sessionId: string, turnId: string): ToolCallRow[];
  /** A started call nobody saw end: it may or may not have taken effect. */
  markInDoubt(key: ToolCallKey): void;
  /** Marks the session's call in doubt as checked by a person; the row it changed, or undefined when none is in doubt. */
  resolveInDoubt(sessionId: string, toolCallId: string): ToolCallRow | undefined;
  /** Write calls in doubt, oldest first, for the approvals inbox; calls of soft-deleted sessions are left out. */
  listInDoubtWrites(filter?: { principal?: Principal }): ToolCallRow[];
}

type Stored = typeof toolCalls.$inferSelect;

export const toRow = (r: Stored): ToolCallRow => ({ ...r, input: r.input ?? null, outcome: (r.outcome as ToolCallOutcome | null) ?? null });

/** Write calls in doubt of visible sessions (joined), the same SQL on both dialects. */
export function inDoubtWritesWhere(
  call: { status: Column; effect: Column },
  session: { status: Column; principalType: Column; principalId: Column },
  principal: Principal | undefined,
): SQL | undefined {
  return and(eq(call.status, "in_doubt"), eq(call.effect, "write"), visibleOf(session, principal));
}

export function createToolCallsRepository(ctx: StoreContext): ToolCallsRepository {
  const { db, sqlite } = ctx;
  const byKey = (key: ToolCallKey) =>
    and(eq(toolCalls.sessionId, key.sessionId), eq(toolCalls.turnId, key.turnId), eq(toolCalls.toolCallId, key.toolCallId));
  // Start and finish run twice per tool call of every turn: raw prepared statements, no query building.
  const insert = sqlite.prepare(
    `INSERT INTO tool_calls (session_id, turn_id, tool_call_id, name, effect, input, status, started_at)
     VALUES (?, ?, ?, ?, ?, ?, 'started', ?) ON CONFLICT DO NOTHING`,
  );
  const settle = sqlite.prepare(
    "UPDATE tool_calls SET status = ?, outcome = ?, ended_at = ? WHERE session_id = ? AND turn_id = ? AND tool_call_id = ? AND status = 'started'",
  );
  return {
    start(call) {
      const input = JSON.stringify(call.input ?? null);
      return insert.run(call.sessionId, call.turnId, call.toolCallId, call.name, call.effect, input, ctx.now()).changes === 1;
    },

    finish(key, outcome) {
      const status = outcome.stillRunning ? "in_doubt" : "finished";
      settle.run(status, JSON.stringify(outcome), ctx.now(), key.sessionId, key.turnId, key.toolCallId);
    },

    get(key) {
      const row = db.select().from(toolCalls).where(byKey(key)).get();
      return row && toRow(row);
    },

    ofTurn(sessionId, turnId) {
      return db
        .select()
        .from(toolCalls)
        .where(and(eq(toolCalls.sessionId, sessionId), eq(toolCalls.turnId, turnId)))
        // Insertion order (the rowid): the order the turn ran them.
        .orderBy(sql`rowid`)
        .all()
        .map(toRow);
    },

    markInDoubt(key) {
      db.update(toolCalls)
        .set({ status: "in_doubt" })
        .where(and(byKey(key), eq(toolCalls.status, "started")))
        .run();
    },

    resolveInDoubt(sessionId, toolCallId) {
      const row = db
        .update(toolCalls)
        .set({ status: "resolved", endedAt: ctx.now() })
        .where(and(eq(toolCalls.sessionId, sessionId), eq(toolCalls.toolCallId, toolCallId), eq(toolCalls.status, "in_doubt")))
        .returning()
        .get();
      return row && toRow(row);
    },

    listInDoubtWrites(filter = {}) {
      return db
        .select(getTableColumns(toolCalls))
        .from(toolCalls)
        .innerJoin(sessions, eq(sessions.id, toolCalls.sessionId))
        .where(inDoubtWritesWhere(toolCalls, sessions, filter.principal))
        .orderBy(toolCalls.startedAt, toolCalls.toolCallId)
        .all()
        .map(toRow);
    },
  };
}
