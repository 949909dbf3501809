/**
 * A session's event log on Postgres, fenced (issue 16, items 2 and 3): only
 * the holder of the session's current lease token may append. The append
 * is one statement (events.ts) that locks the owner row (`FOR UPDATE`),
 * checks the token, then locks the session row while its head moves:
 * appends to one session are serialised by the database whichever node
 * they come from, and a takeover (which updates the owner row) can only
 * land between two appends. `checkOwner` is the same check for a
 * transaction that writes other rows before its append.
 *
 * The pool is the caller's, and so is its `error` listener (an idle
 * connection the server drops is an `error` event on the pool).
 */
import type pg from "pg";
import type { AnyBdkEvent, EventDraft } from "../../protocol/events.ts";
import { appendEvents } from "./events.ts";
import type { SessionLease } from "./session-owners.ts";
import { LeaseLostError, ownerRefusal } from "./lease-lost.ts";

export interface PgEventLog {
  /** Stores the drafts with the next indexes, in one statement; throws `LeaseLostError` for a stale owner. */
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
  const { rows } = await client.query<OwnerRow>({
    name: "bdk_owner_check",
    text: "SELECT token, expires_at > clock_timestamp() AS live FROM session_owners WHERE session_id = $1 FOR UPDATE",
    values: [lease.sessionId],
  });
  const refusal = ownerRefusal(rows[0], lease.token);
  if (refusal) throw new LeaseLostError(lease.sessionId, lease.token, refusal);
}

export function createPgEventLog(pool: pg.Pool, now: () => string = () => new Date().toISOString()): PgEventLog {
  return {
    async append(lease, drafts) {
      return appendEvents(pool, lease.sessionId, drafts, now, lease.token);
    },
  };
}
