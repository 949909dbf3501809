/**
 * A session's event log on Postgres, fenced (issue 16, items 2 and 3): only
 * the holder of the session's current lease token may append. The owner row
 * is locked for the append (`FOR UPDATE`) and the token checked, then the
 * store's append (events.ts: the session row locked while its head moves)
 * runs in the same transaction: appends to one session are serialised by
 * the database whichever node they come from, and a takeover (which
 * updates the owner row) can only land between two appends.
 *
 * The pool is the caller's, and so is its `error` listener (an idle
 * connection the server drops is an `error` event on the pool).
 */
import type pg from "pg";
import type { AnyBdkEvent, EventDraft } from "../../protocol/events.ts";
import { pgDb } from "./db.ts";
import { appendEvents } from "./events.ts";
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
}

interface OwnerRow {
  token: string;
  live: boolean;
}

/**
 * Checks, in the open transaction of `client`, that `lease` still owns its
 * session, and locks the owner row until that transaction ends: a takeover
 * can only land before or after it. Throws `LeaseLostError` otherwise.
 */
export async function checkOwner(client: pg.ClientBase, lease: SessionLease): Promise<void> {
  const { rows } = await client.query<OwnerRow>(
    "SELECT token, expires_at > clock_timestamp() AS live FROM session_owners WHERE session_id = $1 FOR UPDATE",
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
}

export function createPgEventLog(pool: pg.Pool, now: () => string = () => new Date().toISOString()): PgEventLog {
  return {
    async append(lease, drafts) {
      return inTransaction(pool, async (client) => {
        await checkOwner(client, lease);
        return appendEvents(pgDb(client), lease.sessionId, drafts, now);
      });
    },
  };
}
