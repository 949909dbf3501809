import { BdkError } from "../protocol/errors.ts";
import { type Principal, samePrincipal } from "../protocol/events.ts";
import type { AsyncStore } from "../store/async-store.ts";
import type { SessionRow } from "../store/types.ts";

/** The row of `sessionId` when it exists and `principal` may use it: `not_found` or `forbidden` otherwise. */
export async function requireSession(store: AsyncStore, sessionId: string, principal: Principal): Promise<SessionRow> {
  const session = await store.sessions.get(sessionId);
  if (!session) throw new BdkError("not_found", `No session ${sessionId}.`);
  if (!samePrincipal(session.principal, principal)) {
    throw new BdkError("forbidden", `Session ${sessionId} belongs to another principal.`);
  }
  return session;
}
