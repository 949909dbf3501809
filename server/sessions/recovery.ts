/**
 * Restart recovery: what a previous process left unfinished. A turn that
 * was running ends `turn.failed` `interrupted`. A turn that was accepted but
 * never started (its message acknowledged, then the process died) gets its
 * `message.received` now and ends `interrupted` too: the message stays in
 * the conversation, so the next turn's history has it, but recovery never
 * runs a model on its own. The files that message brought are handed back
 * to be written before the session's next turn. A turn parked on an
 * approval stays parked, adopted: its session's lease is held (on
 * Postgres, by whichever node's sweeper took it once its owner's lapsed)
 * until the decision resumes it there (turn-chain.ts).
 *
 * The turn's tool calls are settled from the side-effect ledger first: a
 * call that returned but whose `action.result` was still buffered gets it
 * now (from the ledger); a call that started and never returned is reported
 * `action.in_doubt`. Neither is ever run again.
 *
 * The same code ends the turns of a node that died (the sweeper, on
 * Postgres): each session's unfinished turns are ended under its lease,
 * taken over once the owner's lapsed (turn-lease.ts), so a live owner's
 * turn is never touched and two nodes never end the same turn. A turn that
 * takes over such a session itself ends what the dead owner started first
 * (`endLeftBehind`), before its own message, with the same code.
 */
import type { Logger } from "../host/logger.ts";
import { messageOf } from "../protocol/errors.ts";
import type { AnyBdkEvent, EventDraft } from "../protocol/events.ts";
import type { AsyncRepositories, AsyncStore } from "../store/async-store.ts";
import type { SessionRow, TurnRow } from "../store/types.ts";
import { IN_DOUBT_MESSAGE } from "./call-ledger.ts";
import type { SessionEventLog, TransactionAppend } from "./event-log.ts";
import type { TurnLease, TurnLeases } from "./turn-lease.ts";
import type { SessionWorkspaces } from "./workspaces.ts";

export const INTERRUPTED_RUNNING = "The server stopped while this turn was running.";
export const INTERRUPTED_BEFORE_START = "The server stopped before this turn started; its message is kept in the conversation.";

/** What ending a turn `interrupted` needs: the sweeper's and a turn's that takes a dead owner's session over. */
export interface TurnEnding {
  store: AsyncStore;
  log: SessionEventLog;
  workspaces: SessionWorkspaces;
  logger: Logger;
  now: () => Date;
}

export interface RecoveryOptions extends TurnEnding {
  leases: TurnLeases;
  /** Sessions whose turns run in this process now: not this sweep's to end. */
  busy: (sessionId: string) => boolean;
}

/** A turn parked on an approval whose owner is gone, adopted: its session's lease is held here while it waits for the decision. */
export interface AdoptedTurn {
  sessionId: string;
  turnId: string;
  lease: TurnLease;
  /** Stops fencing the session's appends with `lease`: once the turn resumes (its own lease fences them) or is let go. */
  unfence(): void;
}

export interface Recovered {
  /** Turns ended `interrupted`. */
  interrupted: number;
  /** Turns parked on an approval, adopted: each waits here for its decision. */
  parked: AdoptedTurn[];
  /** Files messages of never-started turns brought, to write before each session's next turn. */
  files: Array<{ session: SessionRow; files: Record<string, string> }>;
}

export async function recoverTurns(options: RecoveryOptions): Promise<Recovered> {
  const { store, leases } = options;
  const recovered: Recovered = { interrupted: 0, parked: [], files: [] };
  const now = options.now();
  const bySession = new Map<string, TurnRow[]>();
  for (const turn of await leases.lapsed(store)) {
    if (options.busy(turn.sessionId) || !leases.settled(turn, now)) continue;
    bySession.set(turn.sessionId, [...(bySession.get(turn.sessionId) ?? []), turn]);
  }
  for (const [sessionId, unfinished] of bySession) {
    // One session's failure (a dropped connection) is logged and the others are still swept: the next sweep retries it.
    try {
      await recoverSession(options, sessionId, unfinished, recovered);
    } catch (error) {
      options.logger.error(`Recovery of session ${sessionId} failed: ${messageOf(error)}`);
    }
  }
  return recovered;
}

/** Under the session's lease: adopts its turn parked on an approval, if it has one, or else ends its unfinished turns. */
async function recoverSession(options: RecoveryOptions, sessionId: string, unfinished: TurnRow[], recovered: Recovered): Promise<void> {
  const taken = await options.leases.takeOver(sessionId, unfinished);
  if (!taken) return;
  const { lease, turns } = taken;
  const unfence = lease.fence ? options.log.fence(sessionId, lease.fence) : () => undefined;
  let adopted = false;
  try {
    const parked = await parkedTurn(options.store, sessionId, turns);
    // The others end as they would without it (on SQLite a message accepted while it waited; on Postgres the lease gave running turns only).
    await endTurns(options, sessionId, turns.filter((turn) => turn !== parked), recovered);
    if (parked) {
      recovered.parked.push({ sessionId, turnId: parked.id, lease, unfence });
      adopted = true;
    }
  } catch (error) {
    // Taken over again meanwhile (this node stalled past the lease): the new owner ends what is left.
    if (!lease.lost.aborted) throw error;
    options.logger.warn(`Recovery of session ${sessionId} stopped: ${messageOf(error)}`);
  } finally {
    if (!adopted) {
      unfence();
      await lease.release();
    }
  }
}

/**
 * The running turn among `turns` that waits on an approval: one still
 * pending, or one decided as the session's last event (decided through
 * another node, or just before a crash, with nobody left to act on it: it
 * resumes at once when adopted).
 */
async function parkedTurn(store: AsyncStore, sessionId: string, turns: readonly TurnRow[]): Promise<TurnRow | undefined> {
  const running = turns.filter((turn) => turn.status === "running");
  if (running.length === 0) return undefined;
  const pending = new Set((await store.approvals.listPending({ sessionId })).map((approval) => approval.turnId));
  const waiting = running.find((turn) => pending.has(turn.id));
  if (waiting) return waiting;
  const session = await store.sessions.get(sessionId);
  const [last] = session ? await store.events.list(sessionId, { fromIndex: session.lastIndex }) : [];
  return last?.type === "action.approval_resolved" ? running.find((turn) => turn.id === last.turnId) : undefined;
}

/**
 * A turn that took the lease of a session whose previous owner died ends,
 * before it runs, the turns that owner started and left unfinished
 * (`lease.leftBehind`): their `action.in_doubt` and `turn.failed` come
 * before the new turn's message, as the sweeper would have recorded them.
 * A turn never started is left to the sweeper (it may be another live
 * node's, waiting for the lease). One parked on a pending approval is not
 * ended here but returned (`parked`): the caller stops it, as a new message
 * stops a parked turn on one node. The caller holds the lease and has
 * fenced the session's appends with it.
 */
export async function endLeftBehind(options: TurnEnding, sessionId: string, turns: readonly TurnRow[]): Promise<{ interrupted: number; parked: string[] }> {
  if (turns.length === 0) return { interrupted: 0, parked: [] };
  const pending = new Set((await options.store.approvals.listPending({ sessionId })).map((approval) => approval.turnId));
  const parked = turns.filter((turn) => turn.status === "running" && pending.has(turn.id));
  const recovered: Recovered = { interrupted: 0, parked: [], files: [] };
  await endTurns(options, sessionId, turns.filter((turn) => !parked.includes(turn)), recovered, { startedOnly: true });
  return { interrupted: recovered.interrupted, parked: parked.map((turn) => turn.id) };
}

/** Ends `turns` `interrupted`, each in its own transaction, counting them in `recovered` as it goes. */
async function endTurns(options: TurnEnding, sessionId: string, turns: readonly TurnRow[], recovered: Recovered, scope: { startedOnly?: boolean } = {}): Promise<void> {
  for (const listed of turns) {
    // One transaction per turn: a crash during recovery leaves each turn either untouched or fully recorded.
    const done = await options.log.transaction(sessionId, async (tx, append) => {
      // Read again under the lease: its owner may have ended it between the list and the takeover.
      const turn = await tx.turns.get(listed.id);
      return turn !== undefined && (turn.status === "queued" || turn.status === "running") && interrupt(options, tx, append, turn, recovered, scope);
    });
    if (done) recovered.interrupted++;
  }
}

async function interrupt(
  options: TurnEnding,
  store: AsyncRepositories,
  append: TransactionAppend,
  turn: TurnRow,
  recovered: Recovered,
  scope: { startedOnly?: boolean },
): Promise<boolean> {
  // A running turn recorded its message when it started; a queued one may not have yet.
  const neverStarted = turn.status === "queued" && !(await store.events.hasTurnEvent(turn.sessionId, turn.id, "message.received"));
  if (neverStarted && scope.startedOnly) return false;
  const session = await store.sessions.get(turn.sessionId);
  await store.turns.update(turn.id, { status: "interrupted", endedAt: options.now().toISOString(), ...(turn.workspaceFiles ? { workspaceFiles: null } : {}) });
  if (!session) return false;
  const drafts: EventDraft[] = [];
  if (neverStarted) {
    const files = turn.workspaceFiles ? checkFiles(options, session, turn) : undefined;
    if (files) recovered.files.push({ session, files: turn.workspaceFiles! });
    drafts.push({ type: "message.received", turnId: turn.id, data: { message: turn.message, ...(files ? { workspaceFiles: files } : {}) } });
  }
  if (!neverStarted) drafts.push(...(await settleCalls(store, session.id, turn.id)));
  const message = neverStarted ? INTERRUPTED_BEFORE_START : INTERRUPTED_RUNNING;
  drafts.push({ type: "turn.failed", turnId: turn.id, data: { status: "interrupted", code: "interrupted", message } });
  drafts.push(session.mode === "task" ? { type: "session.failed", data: { code: "interrupted", message } } : { type: "session.waiting", data: {} });
  await append(drafts);
  await store.sessions.update(session.id, { status: session.mode === "task" ? "failed" : "waiting" });
  return true;
}

/** The turn's ledgered calls whose end the log does not show: the result the ledger kept, or in doubt. */
async function settleCalls(store: AsyncRepositories, sessionId: string, turnId: string): Promise<EventDraft[]> {
  const calls = await store.toolCalls.ofTurn(sessionId, turnId);
  if (calls.length === 0) return [];
  // The async contract's mapped type drops turnEvents' type parameter: the events are those of the type asked for.
  const results = (await store.events.turnEvents(sessionId, turnId, "action.result")) as Extract<AnyBdkEvent, { type: "action.result" }>[];
  const reported = new Set(results.map((event) => event.data.toolCallId));
  const drafts: EventDraft[] = [];
  for (const call of calls) {
    if (reported.has(call.toolCallId)) continue;
    if (call.status === "finished" && call.outcome) {
      drafts.push({ type: "action.result", turnId, data: { toolCallId: call.toolCallId, name: call.name, ...call.outcome } });
      continue;
    }
    await store.toolCalls.markInDoubt(call);
    drafts.push({
      type: "action.in_doubt",
      turnId,
      data: { toolCallId: call.toolCallId, name: call.name, input: call.input, effect: call.effect, startedAt: call.startedAt, message: IN_DOUBT_MESSAGE },
    });
  }
  return drafts;
}

/** The paths of the files a message brought, checked against the workspace as it is now; a bad one is logged and leaves them out. */
function checkFiles(options: TurnEnding, session: SessionRow, turn: TurnRow): string[] | undefined {
  try {
    return options.workspaces.check(session, turn.workspaceFiles!);
  } catch (error) {
    options.logger.warn(`The workspace files of interrupted turn ${turn.id} cannot be written: ${messageOf(error)}`);
    return undefined;
  }
}
