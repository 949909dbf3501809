/**
 * A session's event log on Postgres (issue 16, items 2 and 3): appends are
 * gap-free per session under any number of concurrent writers, and fenced:
 * only the holder of the session's current lease token may append. The
 * owner row is locked for the append (`FOR UPDATE`), so appends to one
 * session are serialised by the database, whichever node they come from;
 * the primary key (session, index) backs that up.
 *
 * The pool is the caller's, and so is its `error` listener (an idle
 * connection the server drops is an `error` event on the pool).
 */
import type pg from "pg";
import type { AnyBdkEvent, EventDraft } from "../../protocol/events.ts";
import type { SessionLease } from "./session-owners.ts";
import { inTransaction } from "./transaction.ts";

/** An append by a holder whose lease was taken over or lapsed: nothing was stored. */
export class LeaseLostError extends Error {
  constructor(
    readonly lease: SessionLease,
    why: string,
  ) {
    super(`${lease.holder} no longer owns session ${lease.sessionId} (token ${lease.token}): ${why}; nothing was appended.`);
    this.name = "LeaseLostError";
  }
}

export interface PgEventLog {
  /** Stores the drafts with the next indexes, in one transaction; throws `LeaseLostError` for a stale owner. */
  append(lease: SessionLease, drafts: readonly EventDraft[]): Promise<AnyBdkEvent[]>;
  /** The session's events from `fromIndex`, in index order. */
  list(sessionId: string, fromIndex?: number): Promise<AnyBdkEvent[]>;
}

interface OwnerRow {
  token: string;
  live: boolean;
  last_index: number;
  now: Date;
}

export function createPgEventLog(pool: pg.Pool): PgEventLog {
  return {
    async append(lease, drafts) {
      return inTransaction(pool, async (client) => {
        const { rows } = await client.query<OwnerRow>(
          `SELECT token, expires_at > clock_timestamp() AS live, last_index, clock_timestamp() AS now
           FROM session_owners WHERE session_id = $1 FOR UPDATE`,
          [lease.sessionId],
        );
        const owner = rows[0];
        const refusal = !owner
          ? "the session has no owner"
          : Number(owner.token) !== lease.token
            ? `the session was taken over (token ${owner.token})`
            : !owner.live
              ? "its lease lapsed"
              : undefined;
        if (refusal) throw new LeaseLostError(lease, refusal);
        const first = owner.last_index + 1;
        const at = owner.now.toISOString();
        if (drafts.length > 0) {
          await client.query(
            `INSERT INTO events (session_id, idx, type, turn_id, at, data)
             SELECT $1, $2 + ord - 1, type, turn_id, $3, data
             FROM unnest($4::text[], $5::text[], $6::jsonb[]) WITH ORDINALITY AS draft(type, turn_id, data, ord)`,
            [lease.sessionId, first, at, drafts.map((d) => d.type), drafts.map((d) => d.turnId ?? null), drafts.map((d) => JSON.stringify(d.data))],
          );
          await client.query("UPDATE session_owners SET last_index = $2 WHERE session_id = $1", [lease.sessionId, first + drafts.length - 1]);
        }
        return drafts.map((draft, i) => toEvent(lease.sessionId, first + i, at, draft));
      });
    },

    async list(sessionId, fromIndex = 0) {
      const { rows } = await pool.query<{ idx: number; type: string; turn_id: string | null; at: Date; data: unknown }>(
        "SELECT idx, type, turn_id, at, data FROM events WHERE session_id = $1 AND idx >= $2 ORDER BY idx",
        [sessionId, fromIndex],
      );
      return rows.map((row) =>
        toEvent(sessionId, row.idx, row.at.toISOString(), { type: row.type, turnId: row.turn_id ?? undefined, data: row.data } as EventDraft),
      );
    },
  };
}

/** The envelope in the key order of a live event: type, index, sessionId, turnId?, at, data. */
function toEvent(sessionId: string, index: number, at: string, draft: EventDraft): AnyBdkEvent {
  return {
    type: draft.type,
    index,
    sessionId,
    ...(draft.turnId ? { turnId: draft.turnId } : {}),
    at,
    data: draft.data,
  } as AnyBdkEvent;
}
