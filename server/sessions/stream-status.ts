/**
 * What a stream's keepalive says while a session has a turn (issue 16 item
 * 5): which node owns it, until when its lease runs, and what a turn that
 * does not progress waits for and since when. Read from the store, so every
 * node answers alike for a session whichever node runs it.
 */
import type { AsyncStore } from "../store/async-store.ts";

export type WaitingFor = "slot" | "lease" | "approval";

export interface TurnStatusLine {
  type: "stream.keepalive";
  at: string;
  turnId: string;
  turnStatus: "queued" | "running";
  /** The node that owns the turn: the session's lease holder, else this node when the turn runs here; absent when unknown. */
  owner?: string;
  leaseExpiresAt?: string;
  waiting?: { for: WaitingFor; since: string };
}

export interface StatusContext {
  store: AsyncStore;
  /** This node's id (host/node-id.ts). */
  nodeId: string;
  /** Whether this process runs (or queues) a turn of the session. */
  runsHere: boolean;
  now: Date;
}

/** The session's current turn as a keepalive line; undefined when it has none (the keepalive stays a bare newline). */
export async function turnStatusLine(sessionId: string, context: StatusContext): Promise<TurnStatusLine | undefined> {
  const { store } = context;
  const active = await store.turns.listByStatus(["queued", "running"], { sessionId });
  const turn = active.find((row) => row.status === "running") ?? active[0];
  if (!turn) return undefined;
  const lease = await store.shared?.owner(sessionId);
  const owner = lease?.holder ?? (context.runsHere ? context.nodeId : undefined);
  return {
    type: "stream.keepalive",
    at: context.now.toISOString(),
    turnId: turn.id,
    turnStatus: turn.status === "running" ? "running" : "queued",
    ...(owner ? { owner } : {}),
    ...(lease ? { leaseExpiresAt: lease.expiresAt } : {}),
    ...(await waiting(store, sessionId, turn.id, turn.status, lease && Date.parse(lease.expiresAt) <= context.now.getTime() ? lease.expiresAt : undefined)),
  };
}

/**
 * A lapsed lease first (the owner stopped renewing: the turn waits for
 * another node to take it over), then what the turn itself waits for: a
 * `maxRunningTurns` slot before it starts, a person's approval after.
 */
async function waiting(
  store: AsyncStore,
  sessionId: string,
  turnId: string,
  status: string,
  leaseLapsedAt: string | undefined,
): Promise<Pick<TurnStatusLine, "waiting">> {
  if (leaseLapsedAt) return { waiting: { for: "lease", since: leaseLapsedAt } };
  if (status === "queued") {
    const [queued] = await store.events.turnEvents(sessionId, turnId, "turn.queued");
    return queued ? { waiting: { for: "slot", since: queued.at } } : {};
  }
  const [approval] = await store.approvals.listPending({ sessionId });
  return approval ? { waiting: { for: "approval", since: approval.createdAt } } : {};
}
