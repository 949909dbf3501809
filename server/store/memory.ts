import { and, type Column, desc, eq, ne, type SQL } from "drizzle-orm";
import type { Principal } from "../protocol/events.ts";
import { ulid } from "../protocol/ids.ts";
import type { StoreContext } from "./context.ts";
import { ownedBy } from "./owned-by.ts";
import { memoryNotes } from "./schema.ts";

export interface MemoryNote {
  id: string;
  scope: string;
  sessionId: string;
  turnId: string;
  principal: Principal;
  note: string;
  createdAt: string;
}

export interface MemoryNoteInput {
  scope: string;
  sessionId: string;
  turnId: string;
  principal: Principal;
  note: string;
}

/** The notes `memoryHook` keeps: newest first everywhere. */
export interface MemoryRepository {
  add(agent: string, input: MemoryNoteInput): MemoryNote;
  /** The newest `limit` notes of a scope, leaving out one session's own (its history already has them). */
  recent(agent: string, scope: string, options: { limit: number; exceptSessionId?: string }): MemoryNote[];
  /** Every note of the agent, or only those of one principal's exchanges. */
  list(agent: string, filter?: { principal?: Principal; limit?: number }): MemoryNote[];
  get(agent: string, id: string): MemoryNote | undefined;
  delete(agent: string, id: string): boolean;
  /** Forgets what was learned with one principal (or everything); returns how many notes went. */
  forget(agent: string, principal?: Principal): number;
}

type Stored = typeof memoryNotes.$inferSelect;

export const toNote = (row: Stored): MemoryNote => ({
  id: row.id,
  scope: row.scope,
  sessionId: row.sessionId,
  turnId: row.turnId,
  principal: { type: row.principalType, id: row.principalId },
  note: row.note,
  createdAt: row.createdAt,
});

/** A scope's notes, leaving out one session's, the same SQL on both dialects. */
export function recentWhere(
  columns: { agent: Column; scope: Column; sessionId: Column },
  agent: string,
  scope: string,
  exceptSessionId: string | undefined,
): SQL | undefined {
  return and(eq(columns.agent, agent), eq(columns.scope, scope), exceptSessionId === undefined ? undefined : ne(columns.sessionId, exceptSessionId));
}

export function noteValues(agent: string, input: MemoryNoteInput, now: string): Stored {
  return {
    id: `mem_${ulid()}`,
    agent,
    scope: input.scope,
    sessionId: input.sessionId,
    turnId: input.turnId,
    principalType: input.principal.type,
    principalId: input.principal.id,
    note: input.note,
    createdAt: now,
  };
}

export function createMemoryRepository(ctx: StoreContext): MemoryRepository {
  const { db } = ctx;
  const ofPrincipal = (principal: Principal) => ownedBy({ type: memoryNotes.principalType, id: memoryNotes.principalId }, principal);
  return {
    add(agent, input) {
      const row = db.insert(memoryNotes).values(noteValues(agent, input, ctx.now())).returning().get();
      return toNote(row);
    },

    recent(agent, scope, options) {
      return db
        .select()
        .from(memoryNotes)
        .where(recentWhere(memoryNotes, agent, scope, options.exceptSessionId))
        .orderBy(desc(memoryNotes.createdAt), desc(memoryNotes.id))
        .limit(options.limit)
        .all()
        .map(toNote);
    },

    list(agent, filter = {}) {
      return db
        .select()
        .from(memoryNotes)
        .where(and(eq(memoryNotes.agent, agent), filter.principal ? ofPrincipal(filter.principal) : undefined))
        .orderBy(desc(memoryNotes.createdAt), desc(memoryNotes.id))
        .limit(filter.limit ?? -1)
        .all()
        .map(toNote);
    },

    get(agent, id) {
      const row = db.select().from(memoryNotes).where(and(eq(memoryNotes.agent, agent), eq(memoryNotes.id, id))).get();
      return row ? toNote(row) : undefined;
    },

    delete(agent, id) {
      return db.delete(memoryNotes).where(and(eq(memoryNotes.agent, agent), eq(memoryNotes.id, id))).run().changes === 1;
    },

    forget(agent, principal) {
      return db
        .delete(memoryNotes)
        .where(and(eq(memoryNotes.agent, agent), principal ? ofPrincipal(principal) : undefined))
        .run().changes;
    },
  };
}
