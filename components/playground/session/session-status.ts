/**
 * How the playground labels a session's state. The stored status says
 * "running" while a call is parked on an approval and "waiting" while a chat
 * waits for its next message; neither is what a person wants to read.
 */
import type { PendingApproval, SessionSummary, StreamKeepalive } from "../../api/types.ts";
import { formatTime } from "../../ui/format.ts";

/** What a session is doing, as the Chat, Runs and recent-session lists say it. */
export type SessionActivity = "needs approval" | "running" | "queued" | "idle" | "completed" | "failed";

/** A listed session's label: "needs approval" when one of the pending approvals is its own, "idle" for a waiting chat. */
export function sessionStatusLabel(session: Pick<SessionSummary, "id" | "status">, pending: readonly Pick<PendingApproval, "sessionId">[]): string | undefined {
  const ended = session.status === "completed" || session.status === "failed" || session.status === "deleted";
  if (!ended && pending.some((approval) => approval.sessionId === session.id)) return "needs approval";
  return session.status === "waiting" ? "idle" : session.status;
}

const WAITING_FOR = { slot: "a slot", approval: "approval", lease: "another node to take over (the owner's lease lapsed)" } as const;

/** What the stream's last keepalive said of the running turn: "waiting for a slot since 12:00:05 · on web-2:4711". */
export function turnOwnershipText(keepalive: StreamKeepalive): string {
  const parts: string[] = [];
  if (keepalive.waiting) parts.push(`waiting for ${WAITING_FOR[keepalive.waiting.for]} since ${formatTime(keepalive.waiting.since)}`);
  if (keepalive.owner) parts.push(`on ${keepalive.owner}`);
  if (keepalive.leaseExpiresAt && keepalive.waiting?.for !== "lease") parts.push(`lease until ${formatTime(keepalive.leaseExpiresAt)}`);
  return parts.join(" · ");
}
