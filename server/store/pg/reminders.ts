import { and, asc, eq, sql } from "drizzle-orm";
import type { AsyncRepository } from "../async-store.ts";
import { reminderValues, toRow, type RemindersRepository } from "../reminders.ts";
import type { PgContext } from "./context.ts";
import { reminders } from "./schema.ts";

export function createPgRemindersRepository(ctx: PgContext): AsyncRepository<RemindersRepository> {
  const { db } = ctx;
  return {
    async create(input) {
      const [row] = await db.insert(reminders).values(reminderValues(input, ctx.now())).returning();
      return toRow(row);
    },

    async get(id) {
      const [row] = await db.select().from(reminders).where(eq(reminders.id, id));
      return row && toRow(row);
    },

    async list(filter = {}) {
      const rows = await db
        .select()
        .from(reminders)
        .where(filter.status === undefined ? undefined : eq(reminders.status, filter.status))
        // NULLS FIRST as SQLite sorts them.
        .orderBy(sql`${reminders.nextFireAt} ASC NULLS FIRST`, asc(reminders.id));
      return rows.map(toRow);
    },

    async update(id, patch) {
      const [row] = await db
        .update(reminders)
        .set({ ...patch, updatedAt: ctx.now() })
        .where(eq(reminders.id, id))
        .returning();
      return row && toRow(row);
    },

    async claim(id, dueAt, patch) {
      // UPDATE … RETURNING under the row lock: a second node racing for the same tick re-checks the WHERE after the first commits, and misses.
      const [row] = await db
        .update(reminders)
        .set({ ...patch, updatedAt: ctx.now() })
        .where(and(eq(reminders.id, id), eq(reminders.status, "armed"), eq(reminders.nextFireAt, dueAt)))
        .returning();
      return row && toRow(row);
    },

    async delete(id) {
      return (await db.delete(reminders).where(eq(reminders.id, id))).rowCount === 1;
    },
  };
}
