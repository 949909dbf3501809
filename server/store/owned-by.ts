import { and, type Column, eq, type SQL } from "drizzle-orm";
import type { Principal } from "../protocol/events.ts";

/**
 * Rows owned by `principal`: type and id both match. An id alone is not an
 * identity (`service:x` and `user:x` are different callers).
 */
export function ownedBy(columns: { type: Column; id: Column }, principal: Principal): SQL {
  return and(eq(columns.type, principal.type), eq(columns.id, principal.id)) as SQL;
}
