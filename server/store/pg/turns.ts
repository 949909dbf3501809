import { and, eq, inArray } from "drizzle-orm";
import type { AsyncRepository } from "../async-store.ts";
import { toRow, turnValues, type TurnsRepository } from "../turns.ts";
import type { PgContext } from "./context.ts";
import { turns } from "./schema.ts";

export function createPgTurnsRepository(ctx: PgContext): AsyncRepository<TurnsRepository> {
  const { db } = ctx;
  return {
    async create(input) {
      const [row] = await db.insert(turns).values(turnValues(input, ctx.now())).returning();
      return toRow(row);
    },

    async get(id) {
      const [row] = await db.select().from(turns).where(eq(turns.id, id));
      return row && toRow(row);
    },

    async update(id, patch) {
      const [row] = await db.update(turns).set(patch).where(eq(turns.id, id)).returning();
      return row && toRow(row);
    },

    async listByStatus(status, options = {}) {
      const statuses = typeof status === "string" ? [status] : [...status];
      const where = options.sessionId
        ? and(inArray(turns.status, statuses), eq(turns.sessionId, options.sessionId))
        : inArray(turns.status, statuses);
      const rows = await db.select().from(turns).where(where).orderBy(turns.createdAt, turns.id);
      return rows.map(toRow);
    },
  };
}
