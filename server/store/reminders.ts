import { and, asc, eq } from "drizzle-orm";
import { ulid } from "../protocol/ids.ts";
import type { StoreContext } from "./context.ts";
import { reminders } from "./schema.ts";
import type { JsonValue, ReminderRow, ReminderStatus } from "./types.ts";

export interface ReminderCreate {
  id?: string;
  spec: JsonValue;
  nextFireAt: string | null;
  status?: ReminderStatus;
}

export type ReminderPatch = Partial<Pick<ReminderRow, "spec" | "nextFireAt" | "status" | "lastFiredAt">>;

export interface RemindersRepository {
  create(input: ReminderCreate): ReminderRow;
  get(id: string): ReminderRow | undefined;
  /** Soonest `nextFireAt` first. */
  list(filter?: { status?: ReminderStatus }): ReminderRow[];
  update(id: string, patch: ReminderPatch): ReminderRow | undefined;
  /**
   * Fires once across every process and node: moves the reminder on
   * (`patch`) only while it is still armed for `dueAt`; the one caller that
   * gets the row back fires it, everyone else gets undefined.
   */
  claim(id: string, dueAt: string, patch: ReminderPatch): ReminderRow | undefined;
  delete(id: string): boolean;
}

type Stored = typeof reminders.$inferSelect;

export const toRow = (r: Stored): ReminderRow => ({ ...r, spec: r.spec as JsonValue });

export function reminderValues(input: ReminderCreate, now: string): Stored {
  return {
    id: input.id ?? `rem_${ulid()}`,
    spec: input.spec,
    nextFireAt: input.nextFireAt,
    status: input.status ?? "armed",
    lastFiredAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

export function createRemindersRepository(ctx: StoreContext): RemindersRepository {
  const { db } = ctx;
  return {
    create(input) {
      const [row] = db.insert(reminders).values(reminderValues(input, ctx.now())).returning().all();
      return toRow(row);
    },

    get(id) {
      const row = db.select().from(reminders).where(eq(reminders.id, id)).get();
      return row && toRow(row);
    },

    list(filter = {}) {
      return db
        .select()
        .from(reminders)
        .where(filter.status === undefined ? undefined : eq(reminders.status, filter.status))
        .orderBy(asc(reminders.nextFireAt), asc(reminders.id))
        .all()
        .map(toRow);
    },

    update(id, patch) {
      const [row] = db
        .update(reminders)
        .set({ ...patch, updatedAt: ctx.now() })
        .where(eq(reminders.id, id))
        .returning()
        .all();
      return row && toRow(row);
    },

    claim(id, dueAt, patch) {
      const [row] = db
        .update(reminders)
        .set({ ...patch, updatedAt: ctx.now() })
        .where(and(eq(reminders.id, id), eq(reminders.status, "armed"), eq(reminders.nextFireAt, dueAt)))
        .returning()
        .all();
      return row && toRow(row);
    },

    delete(id) {
      return db.delete(reminders).where(eq(reminders.id, id)).run().changes === 1;
    },
  };
}
