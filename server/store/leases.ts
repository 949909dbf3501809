import { and, eq, lte, or } from "drizzle-orm";
import type { StoreContext } from "./context.ts";
import { leases } from "./schema.ts";

/** Named leases so that one process of those sharing a state root does a job (firing schedules). */
export interface LeasesRepository {
  /** Takes or renews the lease; false while another holder's lease has not expired. */
  tryAcquire(name: string, holder: string, ttlMs: number): boolean;
  /** Gives it up early; false if `holder` did not hold it. */
  release(name: string, holder: string): boolean;
}

export function createLeasesRepository(ctx: StoreContext): LeasesRepository {
  const { db } = ctx;
  return {
    tryAcquire(name, holder, ttlMs) {
      const now = ctx.now();
      const expiresAt = new Date(Date.parse(now) + ttlMs).toISOString();
      // One statement: the conflict update only happens for the holder itself or over an expired lease.
      const result = db
        .insert(leases)
        .values({ name, holder, expiresAt })
        .onConflictDoUpdate({
          target: leases.name,
          set: { holder, expiresAt },
          setWhere: or(eq(leases.holder, holder), lte(leases.expiresAt, now)),
        })
        .run();
      return result.changes === 1;
    },

    release(name, holder) {
      return db.delete(leases).where(and(eq(leases.name, name), eq(leases.holder, holder))).run().changes === 1;
    },
  };
}
