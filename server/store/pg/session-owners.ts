/**
 * One owner per session, fenced (issue 16, item 2): a row per session with
 * the holder, a lease that a heartbeat extends, and a fencing token that
 * rises on every takeover. Expiry is decided by the database clock, so the
 * nodes' clocks never need to agree.
 */
import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type pg from "pg";
import { toRow } from "../turns.ts";
import type { TurnRow } from "../types.ts";
import { pgDb } from "./db.ts";
import { SESSIONS_CHANNEL } from "./notify.ts";
import { sessionOwners, turns } from "./schema.ts";

/** What a holder keeps while it owns a session: every append carries the token. */
export interface SessionLease {
  sessionId: string;
  holder: string;
  token: number;
}

export interface SessionOwners {
  /**
   * Takes the session when it is free, lapsed (for at least `lapsedForMs`,
   * default 0), or already ours; undefined while another holder's lease runs.
   */
  acquire(sessionId: string, holder: string, ttlMs: number, lapsedForMs?: number): Promise<SessionLease | undefined>;
  /**
   * Takes the session only when it is free or lapsed (for at least
   * `lapsedForMs`), even from `holder` itself: how the sweeper takes a dead
   * owner's session as this node, never one of this node's live turns.
   */
  takeLapsed(sessionId: string, holder: string, ttlMs: number, lapsedForMs: number): Promise<SessionLease | undefined>;
  /** The `queued` and `running` turns of sessions without a live lease (lapsed, or never taken): the sweep's candidates, in one query. */
  lapsedTurns(): Promise<TurnRow[]>;
  /** Extends the lease; false when it was taken over (the holder must stop writing). */
  heartbeat(lease: SessionLease, ttlMs: number): Promise<boolean>;
  /** Lets the lease lapse now, so another node may take the session at once (its waiting turns are woken: notify.ts). */
  release(lease: SessionLease): Promise<void>;
  /**
   * Whether a message accepted since the last call asked to preempt the
   * session's running turn `turnId` (another queued turn's `preempts`);
   * clears the requests, so each preempts once.
   */
  takePreemptRequests(sessionId: string, turnId: string | undefined): Promise<boolean>;
}

/**
 * Takes the session's row when it is free, lapsed for at least
 * `lapsedForMs`, or (`own`) already `holder`'s. The token rises on every
 * acquisition, even a holder's own: a restarted process never writes with
 * its old token.
 */
async function take(pool: pg.Pool, sessionId: string, holder: string, ttlMs: number, lapsedForMs: number, own: boolean): Promise<SessionLease | undefined> {
  const { rows } = await pool.query<{ token: string }>({
    name: "bdk_owner_take",
    text: `INSERT INTO session_owners (session_id, holder, token, expires_at)
     VALUES ($1, $2, 1, clock_timestamp() + $3 * interval '1 millisecond')
     ON CONFLICT (session_id) DO UPDATE
       SET holder = excluded.holder, token = session_owners.token + 1, expires_at = excluded.expires_at
       WHERE session_owners.expires_at <= clock_timestamp() - $4 * interval '1 millisecond' OR ($5 AND session_owners.holder = excluded.holder)
     RETURNING token`,
    values: [sessionId, holder, ttlMs, lapsedForMs, own],
  });
  return rows[0] ? { sessionId, holder, token: Number(rows[0].token) } : undefined;
}

/** Every statement here runs once or more per turn: each is a named (prepared) one, parsed and planned once per connection (bench/cluster/append.ts). */
export function createSessionOwners(pool: pg.Pool): SessionOwners {
  return {
    acquire: (sessionId, holder, ttlMs, lapsedForMs = 0) => take(pool, sessionId, holder, ttlMs, lapsedForMs, true),

    takeLapsed: (sessionId, holder, ttlMs, lapsedForMs) => take(pool, sessionId, holder, ttlMs, lapsedForMs, false),

    async lapsedTurns() {
      // Live leases are filtered out here, by the database clock: the sweeper never touches (nor locks) a session a node runs.
      const rows = await pgDb(pool)
        .select({ turn: turns })
        .from(turns)
        .leftJoin(sessionOwners, eq(sessionOwners.sessionId, turns.sessionId))
        .where(and(inArray(turns.status, ["queued", "running"]), or(isNull(sessionOwners.sessionId), lte(sessionOwners.expiresAt, sql`clock_timestamp()`))))
        .orderBy(turns.createdAt, turns.id);
      return rows.map((row) => toRow(row.turn));
    },

    async heartbeat(lease, ttlMs) {
      const { rowCount } = await pool.query({
        name: "bdk_owner_heartbeat",
        text: `UPDATE session_owners SET expires_at = clock_timestamp() + $3 * interval '1 millisecond'
         WHERE session_id = $1 AND token = $2 AND expires_at > clock_timestamp()`,
        values: [lease.sessionId, lease.token, ttlMs],
      });
      return rowCount === 1;
    },

    async release(lease) {
      // The notification goes out on commit, in the one statement: a turn waiting on another node takes the session at once.
      await pool.query({
        name: "bdk_owner_release",
        text: `WITH released AS (
           UPDATE session_owners SET expires_at = clock_timestamp() WHERE session_id = $1 AND token = $2 RETURNING session_id
         )
         SELECT pg_notify('${SESSIONS_CHANNEL}', session_id) FROM released`,
        values: [lease.sessionId, lease.token],
      });
    },

    async takePreemptRequests(sessionId, turnId) {
      // The turn itself is still `queued` until it starts running: its own request was for the turn before it.
      const { rowCount } = await pool.query({
        name: "bdk_owner_take_preempts",
        text: "UPDATE turns SET preempts = false WHERE session_id = $1 AND status = 'queued' AND preempts AND id IS DISTINCT FROM $2",
        values: [sessionId, turnId ?? null],
      });
      return (rowCount ?? 0) > 0;
    },
  };
}
