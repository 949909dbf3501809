import { and, type Column, eq, ne, type SQL } from "drizzle-orm";
import type { Principal } from "../protocol/events.ts";

/**
 * Rows owned by `principal`: type and id both match. An id alone is not an
 * identity (`service:x` and `user:x` are different callers).
 */
/** Sessions not soft-deleted, of `principal` when given. */
export function visibleOf(session: { status: Column; principalType: Column; principalId: Column }, principal: Principal | undefined): SQL {
  const visible = ne(session.status, "deleted");
  return principal === undefined ? visible : (and(visible, ownedBy({ type: session.principalType, id: session.principalId }, principal)) as SQL);
}

export function ownedBy(columns: { type: Column; id: Column }, principal: Principal): SQL {
  return and(eq(columns.type, principal.type), eq(columns.id, principal.id)) as SQL;
}
