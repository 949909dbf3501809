/**
 * One owner per session, fenced (issue 16, item 2): a row per session with
 * the holder, a lease that a heartbeat extends, and a fencing token that
 * rises on every takeover. Expiry is decided by the database clock, so the
 * nodes' clocks never need to agree.
 */
import type pg from "pg";
import { SESSIONS_CHANNEL } from "./notify.ts";

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

/** Every statement here runs once or more per turn: each is a named (prepared) one, parsed and planned once per connection (bench/cluster/append.ts). */
export function createSessionOwners(pool: pg.Pool): SessionOwners {
  return {
    async acquire(sessionId, holder, ttlMs, lapsedForMs = 0) {
      // The token rises on every acquisition, even a holder's own: a restarted process never writes with its old token.
      const { rows } = await pool.query<{ token: string }>({
        name: "bdk_owner_acquire",
        text: `INSERT INTO session_owners (session_id, holder, token, expires_at)
         VALUES ($1, $2, 1, clock_timestamp() + $3 * interval '1 millisecond')
         ON CONFLICT (session_id) DO UPDATE
           SET holder = excluded.holder, token = session_owners.token + 1, expires_at = excluded.expires_at
           WHERE session_owners.expires_at <= clock_timestamp() - $4 * interval '1 millisecond' OR session_owners.holder = excluded.holder
         RETURNING token`,
        values: [sessionId, holder, ttlMs, lapsedForMs],
      });
      return rows[0] ? { sessionId, holder, token: Number(rows[0].token) } : undefined;
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
