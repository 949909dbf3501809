import { lt } from "drizzle-orm";
import type { AsyncRepository } from "../async-store.ts";
import { scheduleTickValues, type ScheduleTicksRepository } from "../schedule-ticks.ts";
import type { PgContext } from "./context.ts";
import { scheduleTicks } from "./schema.ts";

export function createPgScheduleTicksRepository(ctx: PgContext): AsyncRepository<ScheduleTicksRepository> {
  const { db } = ctx;
  return {
    async claim(scheduleKey, tickAt, holder) {
      // INSERT … ON CONFLICT DO NOTHING: a node racing for the same tick waits on the first one's key and inserts nothing.
      const result = await db.insert(scheduleTicks).values(scheduleTickValues(scheduleKey, tickAt, holder, ctx.now())).onConflictDoNothing();
      return result.rowCount === 1;
    },

    async prune(claimedBefore) {
      return (await db.delete(scheduleTicks).where(lt(scheduleTicks.claimedAt, claimedBefore))).rowCount ?? 0;
    },
  };
}
