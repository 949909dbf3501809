import { randomBytes } from "node:crypto";
import { nodeId } from "../../host/node-id.ts";
import { and, eq, lte, or } from "drizzle-orm";
import type { AsyncRepository } from "../async-store.ts";
import type { LeasesRepository } from "../leases.ts";
import type { PgContext } from "./context.ts";
import { leases } from "./schema.ts";

/**
 * Named leases on Postgres (one node of a cluster fires schedules and
 * reminders). Across machines a process id means nothing, so a dead
 * holder's lease passes on when it expires, not at once as on SQLite; the
 * claims themselves (reminders, approvals) are conditional updates and stay
 * once-only without it.
 */
export function createPgLeasesRepository(ctx: PgContext, holder: string): AsyncRepository<LeasesRepository> {
  const { db } = ctx;
  return {
    async processHolder() {
      return holder;
    },

    async tryAcquire(name, who, ttlMs) {
      const now = ctx.now();
      const expiresAt = new Date(Date.parse(now) + ttlMs).toISOString();
      // One statement: the conflict update only happens for the holder itself or over an expired lease.
      const result = await db
        .insert(leases)
        .values({ name, holder: who, expiresAt })
        .onConflictDoUpdate({
          target: leases.name,
          set: { holder: who, expiresAt },
          setWhere: or(eq(leases.holder, who), lte(leases.expiresAt, now)),
        });
      return result.rowCount === 1;
    },

    async release(name, who) {
      return (await db.delete(leases).where(and(eq(leases.name, name), eq(leases.holder, who)))).rowCount === 1;
    },

    async close() {
      // A clean exit hands its leases on at once.
      await db.delete(leases).where(eq(leases.holder, holder));
    },
  };
}

/**
 * This node's holder id: its node id (`BDK_NODE_ID`, else `<hostname>:<pid>`,
 * as streams name a turn's owner) and a suffix unique per opened store (a
 * process may open several), readable in the leases tables.
 */
export function nodeHolder(): string {
  return `${nodeId()}#${randomBytes(4).toString("hex")}`;
}
