import { lt } from "drizzle-orm";
import type { StoreContext } from "./context.ts";
import { scheduleTicks } from "./schema.ts";

/**
 * Claims of schedule ticks, so that a schedule fires once per tick for every
 * process and node on one store, whoever holds the `schedules` lease.
 */
export interface ScheduleTicksRepository {
  /** Claims the tick `tickAt` of `scheduleKey` for `holder`: true for exactly one caller, false for every later one. */
  claim(scheduleKey: string, tickAt: string, holder: string): boolean;
  /** Forgets the claims made before `claimedBefore`; returns how many. */
  prune(claimedBefore: string): number;
}

export function scheduleTickValues(scheduleKey: string, tickAt: string, holder: string, now: string): typeof scheduleTicks.$inferInsert {
  return { scheduleKey, tickAt, claimedBy: holder, claimedAt: now };
}

export function createScheduleTicksRepository(ctx: StoreContext): ScheduleTicksRepository {
  const { db } = ctx;
  return {
    claim(scheduleKey, tickAt, holder) {
      // A conditional insert: the primary key lets one row in, the conflict turns every other claim into a no-op.
      const result = db.insert(scheduleTicks).values(scheduleTickValues(scheduleKey, tickAt, holder, ctx.now())).onConflictDoNothing().run();
      return result.changes === 1;
    },

    prune(claimedBefore) {
      return db.delete(scheduleTicks).where(lt(scheduleTicks.claimedAt, claimedBefore)).run().changes;
    },
  };
}
