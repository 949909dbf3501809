/**
 * Runs one turn of a session once its chain reaches it: lays the workspace
 * out, records the message (`message.received`), waits for a
 * `maxRunningTurns` slot, runs the loop, and records how the turn ended and
 * what the session does next.
 */
import type { ModelMessage } from "ai";
import type { ParkedStep } from "../harness/run-turn.ts";
import { historyFromEvents } from "../harness/history.ts";
import { systemPromptText } from "../harness/system-prompt.ts";
import type { Logger } from "../host/logger.ts";
import type { ResolvedAgent } from "../load/types.ts";
import type { McpConnections } from "../mcp/connections.ts";
import type { MemoryJournal } from "../memory/journal.ts";
import { rememberTurn, shareJournal } from "../memory/memory.ts";
import { BdkError, messageOf } from "../protocol/errors.ts";
import { addUsage, type AnyBdkEvent, type EventDataByType, type EventDraft } from "../protocol/events.ts";
import type { ModelStepRecord } from "../protocol/model-calls.ts";
import type { AsyncStore, AsyncTransaction } from "../store/async-store.ts";
import type { SessionRow } from "../store/types.ts";
import type { ApprovalDesk } from "./approval-desk.ts";
import { turnLedger } from "./call-ledger.ts";
import type { SessionEventLog, TransactionAppend } from "./event-log.ts";
import type { LiveSessions } from "./live-sessions.ts";
import { connectionTools, modelOffer } from "./model-offer.ts";
import { endLeftBehind } from "./recovery.ts";
import { modelConfigFor } from "./run-overrides.ts";
import { resultCommitter, toolContextFor, type TurnServices } from "./turn-setup.ts";
import type { TurnLease, TurnLeases } from "./turn-lease.ts";
import { executeTurn, LEASE_LOST, PREEMPTED, STOPPED, type TurnEnd } from "./turn-runner.ts";
import type { TurnSlots } from "./turn-slots.ts";
import type { SessionWorkspaces } from "./workspaces.ts";

/**
 * How a turn begins: a new message (with files); or, on `history`, a step
 * to resume (parked on an approval before a restart, or a fork cut after a
 * step asked for tools) or the step to call the model at (a fork cut
 * anywhere else inside a turn).
 */
export interface TurnStart {
  message?: string;
  workspaceFiles?: Record<string, string>;
  resume?: ParkedStep;
  continueAt?: number;
  history?: ModelMessage[];
}

export interface TurnExecutorOptions {
  store: AsyncStore;
  log: SessionEventLog;
  lives: LiveSessions;
  workspaces: SessionWorkspaces;
  approvals: ApprovalDesk;
  slots: TurnSlots;
  /** The session's lease a turn holds while it runs (one process: always granted). */
  leases: TurnLeases;
  services: TurnServices;
  logger: Logger;
  /** The agent as loaded now (memory notes use it; a turn runs the version it started with). */
  agent: () => ResolvedAgent;
  /** `memoryHook`'s journal of completed turns, shared into each workspace. */
  journal: MemoryJournal;
  mcp?: Pick<McpConnections, "modelTools">;
}

/** A call that came back as an error (thrown, invalid input, denied, an MCP error result), in the log with its session. */
function logToolError(logger: Logger, sessionId: string, turnId: string, result: EventDataByType["action.result"]): void {
  const output = typeof result.output === "string" ? result.output : JSON.stringify(result.output) ?? "";
  logger.warn(`Tool ${result.name} returned an error: ${output.length > 300 ? `${output.slice(0, 299)}…` : output}`, {
    sessionId,
    turnId,
    toolCallId: result.toolCallId,
    tool: result.name,
  });
}

const DELETED: TurnEnd = { status: "cancelled", code: "deleted", message: "The session was deleted." };

/** How a turn ends here that another node recorded the end of (its sweeper, after this node lost the session): nothing is recorded. */
const ENDED_ELSEWHERE: TurnEnd = { status: "interrupted", code: "interrupted", message: "Another node ended this turn." };

export class TurnExecutor {
  constructor(private readonly options: TurnExecutorOptions) {}

  /**
   * Runs the turn holding the session's lease: its appends are fenced by it,
   * losing it stops the turn (nothing more of it is stored; the node that
   * took the session over records its end); a message accepted on another
   * node that preempts stops it as a local one would. Stopped while another node held
   * the session, the turn ends here unrecorded: its row stays queued and the
   * sweeper records it `interrupted` (its message kept) once that node lets go.
   */
  async run(sessionId: string, turnId: string, start: TurnStart, agent: ResolvedAgent, controller: AbortController): Promise<TurnEnd> {
    const { log, lives, leases, logger } = this.options;
    if (!lives.get(sessionId) || log.isMuted(sessionId)) return DELETED;
    let lease: TurnLease | undefined;
    try {
      lease = await leases.acquire(sessionId, turnId, controller.signal);
    } catch (error) {
      if (!controller.signal.aborted) throw error;
      return { ...STOPPED, ...(controller.signal.reason as object) };
    }
    if (!lease) return ENDED_ELSEWHERE;
    const live = lives.get(sessionId);
    if (live) {
      // Another node ran turns of the session since this process last did: what is cached here is out of date.
      if (!lease.follows(live.leaseToken)) {
        live.history = undefined;
        live.session = undefined;
      }
      live.leaseToken = lease.token;
    }
    const unfence = lease.fence ? log.fence(sessionId, lease.fence) : undefined;
    const stop = () => controller.abort(LEASE_LOST);
    const preempt = () => controller.abort(PREEMPTED);
    lease.lost.addEventListener("abort", stop, { once: true });
    lease.preempted.addEventListener("abort", preempt, { once: true });
    // An approval of this turn decided on another node: the wait here goes on with it.
    const unwatch = lease.watch(() => void this.options.approvals.recheck(turnId));
    try {
      await this.endLeftBehind(sessionId, lease);
      return await this.runHeld(sessionId, turnId, start, agent, controller);
    } catch (error) {
      if (!lease.lost.aborted) throw error;
      logger.warn(`Turn ${turnId} of session ${sessionId} stopped: ${messageOf(error)}`);
      return { ...LEASE_LOST };
    } finally {
      lease.lost.removeEventListener("abort", stop);
      lease.preempted.removeEventListener("abort", preempt);
      unwatch();
      unfence?.();
      if (lives.get(sessionId)?.next) lease.handOver();
      else await lease.release().catch((error: unknown) => logger.warn(`Could not release the lease of session ${sessionId}: ${messageOf(error)}`));
    }
  }

  /**
   * Ends a turn parked on an approval without running it, as a stop or a
   * new message does: its pending approvals are denied, then it ends
   * `stopped`. The caller holds the session's lease.
   */
  async stopParked(sessionId: string, turnId: string): Promise<void> {
    const { store, approvals } = this.options;
    for (const approval of await store.approvals.listPending({ sessionId })) {
      if (approval.turnId !== turnId) continue;
      // Resolved by someone else since the list was read: the stop goes on regardless.
      await approvals.resolve(approval, { approved: false, by: "system", reason: "the turn was stopped" }).catch((error: unknown) => {
        if (!(error instanceof BdkError && error.code === "already_resolved")) throw error;
      });
    }
    const session = await store.sessions.get(sessionId);
    if (session) await this.finish(session, turnId, { ...STOPPED }, true);
  }

  /**
   * What a dead owner started and left unfinished ends first, so this turn's
   * history and log come after it; a turn it left parked on an approval is
   * stopped, as this message would stop it on one node.
   */
  private async endLeftBehind(sessionId: string, lease: TurnLease): Promise<void> {
    const { store, log, lives, workspaces, logger, services } = this.options;
    const { interrupted, parked } = await endLeftBehind({ store, log, workspaces, logger, now: services.now }, sessionId, lease.leftBehind);
    for (const turnId of parked) await this.stopParked(sessionId, turnId);
    const ended = interrupted + parked.length;
    if (ended === 0) return;
    logger.warn(`Ended ${ended} turn(s) of session ${sessionId} that a node whose lease lapsed left running.`);
    const live = lives.get(sessionId);
    if (live) live.history = undefined;
  }

  private async runHeld(sessionId: string, turnId: string, start: TurnStart, agent: ResolvedAgent, controller: AbortController): Promise<TurnEnd> {
    const { store, log, lives, workspaces, services } = this.options;
    // Everything a turn records within one tick is stored in one transaction; only
    // message.received is written at once (`receive`), because its index is needed right away.
    const emit = (draft: EventDraft): void => {
      if (draft.type === "action.result" && draft.data.isError) logToolError(this.options.logger, sessionId, turnId, draft.data);
      log.appendSoon(sessionId, { ...draft, turnId });
    };
    const receive = async (data: EventDataByType["message.received"]): Promise<AnyBdkEvent | undefined> =>
      (await log.append(sessionId, [{ type: "message.received", turnId, data }]))[0];
    // A deleted session's entry is gone (its chain ends here) and its log is muted.
    const live = lives.get(sessionId);
    if (!live || log.isMuted(sessionId)) return DELETED;
    // What a turn reads of its session (mode, purpose, dry run) never changes: read it once per process.
    const session = live.session ?? (await store.sessions.get(sessionId));
    if (!session) return DELETED;
    live.session = session;
    let history = start.history;
    // Laid out for a resumed turn too: a fork's first turn may pick up a cut turn in its new workspace.
    let written: string[] | undefined;
    try {
      await workspaces.prepare(session, agent);
      await shareJournal(this.options.journal, agent, session, workspaces.dirOf(session));
      if (start.workspaceFiles) written = await workspaces.write(session, start.workspaceFiles);
    } catch (error) {
      if (start.message !== undefined) await receive({ message: start.message });
      return this.finish(session, turnId, { status: "failed", code: "workspace", message: messageOf(error) }, true);
    }
    if (start.message !== undefined) {
      const received = await receive({ message: start.message, ...(written ? { workspaceFiles: written } : {}) });
      // Deleted while the workspace was being prepared: nothing was recorded, nothing runs.
      if (!received) return DELETED;
      history = live.history ?? (await this.historyBefore(sessionId, received.index));
    }
    await store.sessions.update(sessionId, { status: "running" });

    let release: () => void;
    try {
      release = await this.options.slots.acquire(
        (position) => emit({ type: "turn.queued", data: { position } }),
        controller.signal,
      );
    } catch {
      return this.finish(session, turnId, { ...STOPPED, ...(controller.signal.reason as object) }, true);
    }

    // The files are in the workspace and listed in message.received: the row need not keep them.
    await store.turns.update(turnId, {
      status: "running",
      startedAt: services.now().toISOString(),
      ...(start.workspaceFiles ? { workspaceFiles: null } : {}),
    });
    const scope = { session, workspaceDir: workspaces.dirOf(session), turnId };
    const gate = this.options.approvals.gateFor(sessionId, turnId, controller.signal);
    // A fork's overrides; every other session runs the agent as loaded.
    const overrides = session.fork?.overrides;
    // Stored in the transaction of the step's next events (its message.completed, actions.requested): a step and its content go together.
    const recordStep = (scope: string, record: ModelStepRecord) =>
      log.writeSoon(sessionId, (tx) => tx.modelCalls.append(sessionId, turnId, scope, record));
    try {
      const mcpTools = await connectionTools(this.options.mcp, agent, controller.signal);
      const offer = await modelOffer({ services, agent, session, workspaceDir: scope.workspaceDir, connectionTools: mcpTools, emit, gate, recordStep });
      const end = await executeTurn({
        turnId,
        message: start.message,
        resume: start.resume,
        continueAt: start.continueAt,
        gate,
        ledger: turnLedger(store, log, sessionId, turnId),
        commit: resultCommitter(agent, toolContextFor(services, agent, scope, undefined, controller.signal)),
        system: systemPromptText(offer.systemPrompt),
        history: history ?? [],
        tools: offer.tools,
        botVersion: offer.botVersion,
        resolveModels: () => services.resolveModels(modelConfigFor(agent.config, overrides), agent.name),
        isModelUnavailable: services.isModelUnavailable,
        toolContext: (toolCallId, signal) => toolContextFor(services, agent, scope, toolCallId, signal),
        emit,
        recordStep: (record) => recordStep("", record),
        signal: controller.signal,
      });
      live.history = end.status === "completed" && start.message !== undefined ? [...(history ?? []), ...end.messages] : undefined;
      return await this.finish(session, turnId, end);
    } finally {
      release();
    }
  }

  /**
   * Records how a turn ended and what the session does next, in one
   * transaction with the turn's still buffered events: the turn's end event,
   * the session's next state and the rows agree after any crash.
   * `reportFailure` is for turns that never reached the loop (which records
   * its own end): their `turn.failed` is recorded here.
   */
  async finish(session: SessionRow, turnId: string, end: TurnEnd, reportFailure = false): Promise<TurnEnd> {
    await this.options.log.transaction(session.id, (tx, append) => this.record(tx, append, session, turnId, end, reportFailure));
    if (end.status === "completed") await this.remember(session, turnId, end.text);
    return end;
  }

  private async record(tx: AsyncTransaction, append: TransactionAppend, session: SessionRow, turnId: string, end: TurnEnd, reportFailure: boolean): Promise<void> {
    const { lives, services } = this.options;
    const at = services.now().toISOString();
    if (end.status === "completed") {
      const known = lives.get(session.id)?.session ?? (await tx.sessions.get(session.id));
      const usage = known ? addUsage(known.usage, end.usage) : end.usage;
      await tx.turns.update(turnId, { status: "completed", endedAt: at, usage: end.usage });
      await append([session.mode === "task" ? { type: "session.completed", data: { result: end.text } } : { type: "session.waiting", data: {} }]);
      const updated = await tx.sessions.update(session.id, { status: session.mode === "task" ? "completed" : "waiting", usage });
      // The cached row changes only with the stored one: a rollback keeps it as it was (so a retry adds the usage once),
      // and the entry is looked up at commit (it may have been evicted and reopened since the turn began).
      tx.afterCommit(() => {
        const atCommit = lives.get(session.id);
        if (atCommit && updated) atCommit.session = updated;
      });
      return;
    }
    await tx.turns.update(turnId, { status: end.status, endedAt: at });
    const failed: EventDraft[] = reportFailure ? [{ type: "turn.failed", turnId, data: { status: end.status, code: end.code, message: end.message } }] : [];
    if (session.mode === "task") {
      await append([...failed, { type: "session.failed", data: { code: end.code, message: end.message } }]);
      await tx.sessions.update(session.id, { status: "failed" });
    } else {
      await append([...failed, { type: "session.waiting", data: {} }]);
      await tx.sessions.update(session.id, { status: "waiting" });
    }
  }

  /** `memoryHook`: a note of the exchange; a failure to store it never fails the turn. */
  private async remember(session: SessionRow, turnId: string, reply: string): Promise<void> {
    try {
      await rememberTurn(this.options.store, this.options.journal, this.options.agent(), session, turnId, reply);
    } catch (error) {
      this.options.logger.warn(`Memory: could not store a note for turn ${turnId}: ${messageOf(error)}`);
    }
  }

  private async historyBefore(sessionId: string, index: number): Promise<ModelMessage[]> {
    const events = (await this.options.store.events.list(sessionId, { fromIndex: 0 })) as AnyBdkEvent[];
    return historyFromEvents(events.filter((event) => event.index < index));
  }
}
