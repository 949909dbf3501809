import { and, desc, eq } from "drizzle-orm";
import type { Principal } from "../../protocol/events.ts";
import type { AsyncRepository } from "../async-store.ts";
import { noteValues, recentWhere, toNote, type MemoryRepository } from "../memory.ts";
import { ownedBy } from "../owned-by.ts";
import type { PgContext } from "./context.ts";
import { memoryNotes } from "./schema.ts";

export function createPgMemoryRepository(ctx: PgContext): AsyncRepository<MemoryRepository> {
  const { db } = ctx;
  const ofPrincipal = (principal: Principal) => ownedBy({ type: memoryNotes.principalType, id: memoryNotes.principalId }, principal);
  const ofAgent = (agent: string, id: string) => and(eq(memoryNotes.agent, agent), eq(memoryNotes.id, id));
  return {
    async add(agent, input) {
      const [row] = await db.insert(memoryNotes).values(noteValues(agent, input, ctx.now())).returning();
      return toNote(row);
    },

    async recent(agent, scope, options) {
      const rows = await db
        .select()
        .from(memoryNotes)
        .where(recentWhere(memoryNotes, agent, scope, options.exceptSessionId))
        .orderBy(desc(memoryNotes.createdAt), desc(memoryNotes.id))
        .limit(options.limit);
      return rows.map(toNote);
    },

    async list(agent, filter = {}) {
      const query = db
        .select()
        .from(memoryNotes)
        .where(and(eq(memoryNotes.agent, agent), filter.principal ? ofPrincipal(filter.principal) : undefined))
        .orderBy(desc(memoryNotes.createdAt), desc(memoryNotes.id));
      // No limit is no LIMIT clause (SQLite's is LIMIT -1).
      const rows = await (filter.limit === undefined ? query : query.limit(filter.limit));
      return rows.map(toNote);
    },

    async get(agent, id) {
      const [row] = await db.select().from(memoryNotes).where(ofAgent(agent, id));
      return row ? toNote(row) : undefined;
    },

    async delete(agent, id) {
      return (await db.delete(memoryNotes).where(ofAgent(agent, id))).rowCount === 1;
    },

    async forget(agent, principal) {
      const result = await db.delete(memoryNotes).where(and(eq(memoryNotes.agent, agent), principal ? ofPrincipal(principal) : undefined));
      return result.rowCount ?? 0;
    },
  };
}
