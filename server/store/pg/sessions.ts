import { and, desc, eq, inArray, ne } from "drizzle-orm";
import { pageLimit, listFilters, sessionValues, throwIfTokenTaken, toPage, toRow, type SessionsRepository } from "../sessions.ts";
import type { AsyncRepository } from "../async-store.ts";
import { pgErrorCode, type PgContext } from "./context.ts";
import { sessions } from "./schema.ts";

const UNIQUE_VIOLATION = "23505";

/** Sessions on Postgres. No trace files here: the database is the log every node reads. */
export function createPgSessionsRepository(ctx: PgContext): AsyncRepository<SessionsRepository> {
  const { db } = ctx;
  const visible = ne(sessions.status, "deleted");
  return {
    async create(input) {
      const values = sessionValues(input, ctx.now());
      try {
        const [row] = await db.insert(sessions).values(values).returning();
        return toRow(row);
      } catch (error) {
        if (pgErrorCode(error) === UNIQUE_VIOLATION) throwIfTokenTaken(input);
        throw error;
      }
    },

    async get(id, options) {
      const [row] = await db
        .select()
        .from(sessions)
        .where(options?.includeDeleted ? eq(sessions.id, id) : and(eq(sessions.id, id), visible));
      return row && toRow(row);
    },

    async update(id, patch) {
      const [row] = await db
        .update(sessions)
        .set({ ...patch, updatedAt: ctx.now() })
        .where(eq(sessions.id, id))
        .returning();
      return row && toRow(row);
    },

    async rotateToken(id, from, to) {
      const result = await db
        .update(sessions)
        .set({ continuationToken: to, updatedAt: ctx.now() })
        .where(and(eq(sessions.id, id), eq(sessions.continuationToken, from), visible));
      return result.rowCount === 1;
    },

    async list(query = {}) {
      const limit = pageLimit(query);
      const rows = await db
        .select()
        .from(sessions)
        .where(and(visible, ...listFilters(sessions, query)))
        .orderBy(desc(sessions.createdAt), desc(sessions.id))
        .limit(limit + 1);
      return toPage(rows, limit);
    },

    async listByStatus(status) {
      const statuses = typeof status === "string" ? [status] : [...status];
      const rows = await db.select().from(sessions).where(inArray(sessions.status, statuses)).orderBy(sessions.createdAt, sessions.id);
      return rows.map(toRow);
    },

    async findByToken(channel, token) {
      const [row] = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.channel, channel), eq(sessions.continuationToken, token), visible));
      return row && toRow(row);
    },

    async softDelete(id) {
      const result = await db
        .update(sessions)
        .set({ status: "deleted", continuationToken: null, updatedAt: ctx.now() })
        .where(and(eq(sessions.id, id), visible));
      return result.rowCount === 1;
    },

    async delete(id) {
      // Events, turns, approvals and the owner row go with it (ON DELETE CASCADE).
      const result = await db.delete(sessions).where(eq(sessions.id, id));
      return result.rowCount === 1;
    },
  };
}
