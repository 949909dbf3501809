import { and, eq, lte, or } from "drizzle-orm";
import type { StoreContext } from "./context.ts";
import { isHolderAlive, listHolders, type ProcessLock, removeDeadHolder, takeProcessLock } from "./process-lock.ts";
import { leases } from "./schema.ts";

/**
 * Named leases so that one process of those sharing a state root does a job
 * (firing schedules and reminders). A lease also ends when its holder's
 * process dies: the next process to ask takes it at once instead of waiting
 * for the expiry (see process-lock.ts).
 */
export interface LeasesRepository {
  /**
   * This process as a lease holder, locked while the store is open: its
   * leases pass to another process as soon as this one dies. The first call
   * also frees the leases of holders that died before (a crash restart).
   */
  processHolder(): string;
  /** Takes or renews the lease; false while another live holder's lease has not expired. */
  tryAcquire(name: string, holder: string, ttlMs: number): boolean;
  /** Gives it up early; false if `holder` did not hold it. */
  release(name: string, holder: string): boolean;
  /** Gives up this process's leases and drops its lock (store close). */
  close(): void;
}

export function createLeasesRepository(ctx: StoreContext): LeasesRepository {
  const { db, stateRoot } = ctx;
  let own: ProcessLock | undefined;

  const upsert = (name: string, holder: string, ttlMs: number): boolean => {
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
  };

  /** Gives up every lease of a holder whose process is gone; true if it was dead. */
  const freeIfDead = (holder: string): boolean => {
    if (holder === own?.holder || isHolderAlive(stateRoot, holder) !== false) return false;
    db.delete(leases).where(eq(leases.holder, holder)).run();
    removeDeadHolder(stateRoot, holder);
    return true;
  };

  return {
    processHolder() {
      if (own) return own.holder;
      own = takeProcessLock(stateRoot);
      for (const holder of listHolders(stateRoot)) freeIfDead(holder);
      return own.holder;
    },

    tryAcquire(name, holder, ttlMs) {
      if (upsert(name, holder, ttlMs)) return true;
      const current = db.select({ holder: leases.holder }).from(leases).where(eq(leases.name, name)).get()?.holder;
      return current !== undefined && current !== holder && freeIfDead(current) && upsert(name, holder, ttlMs);
    },

    release(name, holder) {
      return db.delete(leases).where(and(eq(leases.name, name), eq(leases.holder, holder))).run().changes === 1;
    },

    close() {
      if (!own) return;
      // A clean exit hands its leases on at once, like a crash does.
      if (ctx.sqlite.open) db.delete(leases).where(eq(leases.holder, own.holder)).run();
      own.release();
      own = undefined;
    },
  };
}
