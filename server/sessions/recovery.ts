/**
 * Restart recovery: what a previous process left unfinished. A turn that
 * was running ends `turn.failed` `interrupted`. A turn that was accepted but
 * never started (its message acknowledged, then the process died) gets its
 * `message.received` now and ends `interrupted` too: the message stays in
 * the conversation, so the next turn's history has it, but recovery never
 * runs a model on its own. The files that message brought are handed back
 * to be written before the session's next turn. A turn parked on an
 * approval stays parked.
 *
 * The turn's tool calls are settled from the side-effect ledger first: a
 * call that returned but whose `action.result` was still buffered gets it
 * now (from the ledger); a call that started and never returned is reported
 * `action.in_doubt`. Neither is ever run again.
 */
import type { Logger } from "../host/logger.ts";
import { messageOf } from "../protocol/errors.ts";
import type { EventDraft } from "../protocol/events.ts";
import type { Store } from "../store/index.ts";
import type { TurnRow } from "../store/types.ts";
import { IN_DOUBT_MESSAGE } from "./call-ledger.ts";
import type { SessionEventLog } from "./event-log.ts";
import type { SessionWorkspaces } from "./workspaces.ts";

export const INTERRUPTED_RUNNING = "The server stopped while this turn was running.";
export const INTERRUPTED_BEFORE_START = "The server stopped before this turn started; its message is kept in the conversation.";

export interface RecoveryOptions {
  store: Store;
  log: SessionEventLog;
  workspaces: SessionWorkspaces;
  logger: Logger;
  now: () => Date;
}

export interface Recovered {
  /** Turns ended `interrupted`. */
  interrupted: number;
  /** Turns parked on a pending approval: sessionId → turnId. */
  parked: Map<string, string>;
  /** Files messages of never-started turns brought, to write before each session's next turn. */
  files: Array<{ sessionId: string; files: Record<string, string> }>;
}

export function recoverTurns(options: RecoveryOptions): Recovered {
  const { store } = options;
  const pendingApprovals = new Set(store.approvals.listPending().map((approval) => approval.turnId));
  const recovered: Recovered = { interrupted: 0, parked: new Map(), files: [] };
  for (const turn of store.turns.listByStatus(["queued", "running"])) {
    if (pendingApprovals.has(turn.id)) {
      recovered.parked.set(turn.sessionId, turn.id);
      continue;
    }
    // One transaction per turn: a crash during recovery leaves each turn either untouched or fully recorded.
    if (store.transaction(() => interrupt(options, turn, recovered))) recovered.interrupted++;
  }
  return recovered;
}

function interrupt(options: RecoveryOptions, turn: TurnRow, recovered: Recovered): boolean {
  const { store, log } = options;
  const session = store.sessions.get(turn.sessionId);
  store.turns.update(turn.id, { status: "interrupted", endedAt: options.now().toISOString(), ...(turn.workspaceFiles ? { workspaceFiles: null } : {}) });
  if (!session) return false;
  const drafts: EventDraft[] = [];
  // A running turn recorded its message when it started; a queued one may not have yet.
  const neverStarted = turn.status === "queued" && !store.events.hasTurnEvent(session.id, turn.id, "message.received");
  if (neverStarted) {
    const files = turn.workspaceFiles ? checkFiles(options, turn) : undefined;
    if (files) recovered.files.push({ sessionId: session.id, files: turn.workspaceFiles! });
    drafts.push({ type: "message.received", turnId: turn.id, data: { message: turn.message, ...(files ? { workspaceFiles: files } : {}) } });
  }
  if (!neverStarted) drafts.push(...settleCalls(store, session.id, turn.id));
  const message = neverStarted ? INTERRUPTED_BEFORE_START : INTERRUPTED_RUNNING;
  drafts.push({ type: "turn.failed", turnId: turn.id, data: { status: "interrupted", code: "interrupted", message } });
  drafts.push(session.mode === "task" ? { type: "session.failed", data: { code: "interrupted", message } } : { type: "session.waiting", data: {} });
  log.append(session.id, drafts);
  store.sessions.update(session.id, { status: session.mode === "task" ? "failed" : "waiting" });
  return true;
}

/** The turn's ledgered calls whose end the log does not show: the result the ledger kept, or in doubt. */
function settleCalls(store: Store, sessionId: string, turnId: string): EventDraft[] {
  const calls = store.toolCalls.ofTurn(sessionId, turnId);
  if (calls.length === 0) return [];
  const reported = new Set(store.events.turnEvents(sessionId, turnId, "action.result").map((event) => event.data.toolCallId));
  const drafts: EventDraft[] = [];
  for (const call of calls) {
    if (reported.has(call.toolCallId)) continue;
    if (call.status === "finished" && call.outcome) {
      drafts.push({ type: "action.result", turnId, data: { toolCallId: call.toolCallId, name: call.name, ...call.outcome } });
      continue;
    }
    store.toolCalls.markInDoubt(call);
    drafts.push({
      type: "action.in_doubt",
      turnId,
      data: { toolCallId: call.toolCallId, name: call.name, input: call.input, effect: call.effect, startedAt: call.startedAt, message: IN_DOUBT_MESSAGE },
    });
  }
  return drafts;
}

/** The paths of the files a message brought, checked against the workspace as it is now; a bad one is logged and leaves them out. */
function checkFiles(options: RecoveryOptions, turn: TurnRow): string[] | undefined {
  try {
    return options.workspaces.check(turn.sessionId, turn.workspaceFiles!);
  } catch (error) {
    options.logger.warn(`The workspace files of interrupted turn ${turn.id} cannot be written: ${messageOf(error)}`);
    return undefined;
  }
}
