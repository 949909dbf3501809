/**
 * Admission and the turn chain of every session: a message is stored (a
 * queued turn row) before it is acknowledged; it starts a turn, or joins the
 * turn that waits for the running one (coalesce), or also interrupts the
 * running one (preempt). Turns of one session run one after another, stop
 * and shutdown end them, and turns parked on an approval by a previous
 * process (or, on Postgres, by a node that is gone) wait here, adopted,
 * until a decision or a new message.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "../host/logger.ts";
import type { ResolvedAgent } from "../load/types.ts";
import { BdkError, messageOf } from "../protocol/errors.ts";
import type { AnyBdkEvent } from "../protocol/events.ts";
import { newTurnId } from "../protocol/ids.ts";
import type { AsyncStore, AsyncTransaction } from "../store/async-store.ts";
import type { ApprovalDesk } from "./approval-desk.ts";
import type { SessionEventLog } from "./event-log.ts";
import type { Admitted, ChainedTurn, LiveSession, LiveSessions, QueuedTurn } from "./live-sessions.ts";
import { parkedTurnFromEvents } from "./parked-turn.ts";
import type { AdoptedTurn } from "./recovery.ts";
import type { TurnExecutor, TurnStart } from "./turn-executor.ts";
import { PREEMPTED, SHUTDOWN, STOPPED, type TurnEnd } from "./turn-runner.ts";

export type Admission = "preempt" | "coalesce";

/** How long a graceful stop waits for aborted turns to end; one that takes longer is recovered by the next start. */
const SHUTDOWN_GRACE_MS = 10_000;

export interface TurnChainOptions {
  store: AsyncStore;
  lives: LiveSessions;
  log: SessionEventLog;
  executor: TurnExecutor;
  approvals: ApprovalDesk;
  logger: Logger;
  now: () => Date;
  /** The agent as loaded now: a turn runs the version it was accepted with. */
  agent: () => ResolvedAgent;
}

/** A turn parked on an approval, adopted (recovery.ts): `stop` ends its watch of the lease and its fence. */
interface Dormant extends AdoptedTurn {
  stop(): void;
}

/** How a turn ends whose every message was rolled back: it never ran, and nobody was told it exists. */
const WITHDRAWN: TurnEnd = { status: "cancelled", code: "withdrawn", message: "The transaction that admitted this turn's message rolled back." };

/** The messages of a queued turn as one: the text the turn answers and every file they brought. */
function joinAdmitted(admitted: readonly Admitted[]): Admitted {
  const files = admitted.filter((part) => part.workspaceFiles);
  return {
    message: admitted.map((part) => part.message).join("\n\n"),
    ...(files.length > 0 ? { workspaceFiles: Object.assign({}, ...files.map((part) => part.workspaceFiles)) as Record<string, string> } : {}),
  };
}

export class TurnChain {
  /** Turns parked on an approval by a previous process or a node that is gone, adopted here: by session. */
  private readonly dormant = new Map<string, Dormant>();
  /**
   * Runs code in the context the runtime was created in. Promises of a turn
   * chain outlive the request that queued the turn; made inside it, they
   * would keep that request's async context (and all it holds) alive.
   */
  private readonly detached = AsyncLocalStorage.snapshot();
  private closing = false;

  constructor(private readonly options: TurnChainOptions) {}

  /**
   * Accepts a message for a session in `tx`: once it commits, the message is
   * stored (in the row of the turn that will answer it), so a crash cannot
   * lose it. Returns that turn, which starts only after `tx` has ended: a
   * rollback takes the message out of it (and withdraws a turn it created),
   * and a rolled-back message preempts nothing.
   */
  async admit(
    tx: AsyncTransaction,
    sessionId: string,
    message: string,
    workspaceFiles: Record<string, string> | undefined,
    admission?: Admission,
  ): Promise<ChainedTurn> {
    if (this.closing) throw new BdkError("not_ready", "The server is stopping: send the message again once it is back.");
    this.cancelDormant(sessionId);
    const live = this.options.lives.open(sessionId);
    if (admission !== "coalesce") tx.afterCommit(() => live.running?.controller.abort(PREEMPTED));
    const part: Admitted = { message, ...(workspaceFiles ? { workspaceFiles } : {}) };
    for (let next = live.next; next; next = live.next) {
      // Another transaction is still storing a message of that turn (on Postgres, its row may not even be visible yet): decide once it has ended.
      const others = [...next.accepting].filter(([, by]) => by !== tx).map(([hold]) => hold);
      if (others.length > 0) {
        await Promise.all(others);
        continue;
      }
      const joined = next;
      joined.admitted.push(part);
      this.holdUntilEnd(joined, tx, () => joined.admitted.splice(joined.admitted.indexOf(part), 1));
      const all = joinAdmitted(joined.admitted);
      await tx.turns.update(joined.turnId, {
        message: all.message,
        ...(all.workspaceFiles ? { workspaceFiles: all.workspaceFiles } : {}),
        ...(admission !== "coalesce" ? { preempts: true } : {}),
      });
      return joined;
    }
    const turnId = newTurnId();
    const admitting: Pick<QueuedTurn, "admitted" | "accepting"> = { admitted: [part], accepting: new Map() };
    // Read when the turn starts: messages that joined meanwhile are part of it, and those rolled back are not.
    const queued: QueuedTurn = this.chain(sessionId, live, turnId, () => joinAdmitted(queued.admitted), admitting, admitting);
    live.next = queued;
    this.holdUntilEnd(queued, tx, () => {
      // Joined only in `tx` (other transactions wait for it): nothing of it stays.
      queued.admitted.length = 0;
      if (live.next === queued) live.next = undefined;
    });
    await tx.turns.create({
      id: turnId,
      sessionId,
      status: "queued",
      message,
      workspaceFiles: workspaceFiles ?? null,
      botVersion: this.options.agent().version,
      // The turn running may be another node's: the flag is how it learns to stop (turn-lease.ts).
      preempts: admission !== "coalesce",
      createdAt: this.options.now().toISOString(),
    });
    return queued;
  }

  /**
   * A new fork's first turn when the fork was cut inside a turn: it picks
   * that turn up (`start`: a step to resume or to call the model at) under
   * `turnId`, the id the inherited events of the cut turn carry. Stored
   * (a queued turn row with the turn's message) in `tx`; it starts once
   * `tx` has committed, and never if it rolls back.
   */
  async pickUp(tx: AsyncTransaction, sessionId: string, turnId: string, message: string, start: TurnStart): Promise<ChainedTurn> {
    if (this.closing) throw new BdkError("not_ready", "The server is stopping: fork again once it is back.");
    const admitting: Pick<QueuedTurn, "admitted" | "accepting"> = { admitted: [{ message }], accepting: new Map() };
    const live = this.options.lives.open(sessionId);
    const turn = this.chain(sessionId, live, turnId, () => start, {}, admitting);
    // The fork's session is new and this is its turn from now on, not only once it starts: a Stop, or a message that preempts, reaches it meanwhile.
    live.running = turn;
    this.holdUntilEnd(admitting, tx, () => (admitting.admitted.length = 0));
    await tx.turns.create({
      id: turnId,
      sessionId,
      status: "queued",
      message,
      workspaceFiles: null,
      botVersion: this.options.agent().version,
      createdAt: this.options.now().toISOString(),
    });
    return turn;
  }

  /** Runs `work` before the session's next turn starts (files a recovered message brought); a failure is logged. */
  beforeNextTurn(sessionId: string, label: string, work: () => Promise<unknown>): void {
    const live = this.options.lives.open(sessionId);
    this.detached(() => {
      const done = live.tail.then(work).catch((error: unknown) => this.options.logger.warn(`${label}: ${messageOf(error)}`));
      live.tail = done;
      void done.then(() => {
        if (live.tail === done) this.options.lives.rest(sessionId, live);
      });
    });
  }

  /**
   * Holds a turn left parked on an approval (recovery.ts) until its decision
   * resumes it: taken through this node (`resolveApproval`), or through
   * another, which this node hears of from the lease's watch (the
   * decision's notification, or the next heartbeat). A message accepted on
   * another node that preempts ends it as a message here does; a lease lost
   * lets it go untouched, to its new owner.
   */
  park(adopted: AdoptedTurn): void {
    const { sessionId, turnId, lease } = adopted;
    const letGo = () => {
      if (this.dormant.get(sessionId)?.turnId !== turnId) return;
      this.dormant.delete(sessionId);
      dormant.stop();
    };
    const cancel = () => this.cancelDormant(sessionId);
    const unwatch = lease.watch(() => void this.resumeIfDecided(sessionId, turnId));
    const dormant: Dormant = {
      ...adopted,
      stop: () => {
        unwatch();
        lease.lost.removeEventListener("abort", letGo);
        lease.preempted.removeEventListener("abort", cancel);
        adopted.unfence();
      },
    };
    this.dormant.set(sessionId, dormant);
    // Lost or preempted while the sweep was still reading: the signal will not fire again.
    if (lease.lost.aborted) return letGo();
    if (lease.preempted.aborted) return void cancel();
    lease.lost.addEventListener("abort", letGo, { once: true });
    lease.preempted.addEventListener("abort", cancel, { once: true });
    // Decided before it was adopted (as the session's last event): nothing will notify it again.
    void this.resumeIfDecided(sessionId, turnId);
  }

  /** Continues a turn parked before a restart, once its approval is resolved; false when it was not parked. */
  async resumeParked(sessionId: string, turnId: string): Promise<boolean> {
    if (this.dormant.get(sessionId)?.turnId !== turnId) return false;
    const events = (await this.options.store.events.list(sessionId, { fromIndex: 0 })) as AnyBdkEvent[];
    // Still parked after the read: a message or a stop that came meanwhile cancelled it (and chained its own turn first).
    const dormant = this.dormant.get(sessionId);
    if (dormant?.turnId !== turnId) return true;
    this.dormant.delete(sessionId);
    dormant.stop();
    // The resumed turn takes the lease over as it starts, as the same holder: never released, so no other node's sweep can take the gap.
    dormant.lease.handOver();
    const rebuilt = parkedTurnFromEvents(events, turnId);
    if (rebuilt) this.chain(sessionId, this.options.lives.open(sessionId), turnId, () => ({ resume: rebuilt.parked, history: rebuilt.history }), {});
    return true;
  }

  /** Interrupts the running turn and the one waiting for it (whose messages are recorded); false when none. */
  stop(sessionId: string): boolean {
    if (this.cancelDormant(sessionId)) return true;
    const live = this.options.lives.get(sessionId);
    if (!live?.running && !live?.next) return false;
    live.next?.controller.abort(STOPPED);
    // A message after the stop starts a turn of its own.
    live.next = undefined;
    live.running?.controller.abort(STOPPED);
    return true;
  }

  /** Resolves once the session has no running or queued turn. */
  async idle(sessionId: string): Promise<void> {
    for (;;) {
      const tail = this.options.lives.get(sessionId)?.tail;
      if (!tail) return;
      await tail.catch(() => undefined);
      if (this.options.lives.get(sessionId)?.tail === tail) return;
    }
  }

  /** The turn running in the session now, if any. */
  runningTurnId(sessionId: string): string | undefined {
    return this.options.lives.get(sessionId)?.running?.turnId;
  }

  /** The session is being deleted: its turns stop and it is forgotten. Resolves when its last turn has ended. */
  abandon(sessionId: string): Promise<unknown> {
    const dormant = this.dormant.get(sessionId);
    this.dormant.delete(sessionId);
    dormant?.stop();
    void dormant?.lease.release().catch((error: unknown) => this.options.logger.warn(`Could not release the lease of deleted session ${sessionId}: ${messageOf(error)}`));
    const live = this.options.lives.get(sessionId);
    live?.next?.controller.abort(STOPPED);
    live?.running?.controller.abort(STOPPED);
    this.options.lives.forget(sessionId);
    return (live?.tail ?? Promise.resolve()).catch(() => undefined);
  }

  /**
   * A graceful stop: no new message is accepted; running and waiting turns
   * end `interrupted` (as a restart after a crash would record them); a turn
   * parked on an approval stays parked, its approval pending, for the next
   * process to resume. Resolves when the turns that end have ended (or
   * after a grace period: a tool that ignores its abort signal cannot hold
   * the process; the next start recovers that turn as after a crash).
   */
  async shutdown(): Promise<void> {
    this.closing = true;
    const ending: Promise<unknown>[] = [];
    for (const [, live] of this.options.lives.busySessions()) {
      live.next?.controller.abort(SHUTDOWN);
      live.running?.controller.abort(SHUTDOWN);
      // Its chain never settles: the wait on the approval outlives this process, as after kill -9.
      if (live.running && this.options.approvals.isWaiting(live.running.turnId)) continue;
      ending.push(live.tail);
    }
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS)));
    await Promise.race([Promise.allSettled(ending), grace]);
    clearTimeout(timer);
  }

  /** Keeps `turn` from starting until `tx` has ended; `undo` runs first if it rolls back. */
  private holdUntilEnd(turn: Pick<QueuedTurn, "accepting">, tx: AsyncTransaction, undo: () => void): void {
    let ended!: () => void;
    const hold = new Promise<void>((resolve) => (ended = resolve));
    turn.accepting.set(hold, tx);
    const release = () => {
      turn.accepting.delete(hold);
      ended();
    };
    tx.afterCommit(release);
    tx.onRollback(() => {
      undo();
      release();
    });
  }

  /**
   * Ends a turn parked before a restart without running it (a stop or a new
   * message), before the session's next turn starts.
   */
  private cancelDormant(sessionId: string): boolean {
    const dormant = this.dormant.get(sessionId);
    if (!dormant) return false;
    this.dormant.delete(sessionId);
    this.beforeNextTurn(sessionId, `Could not end turn ${dormant.turnId} of session ${sessionId}, parked before the restart`, () => this.endDormant(dormant));
    return true;
  }

  /** Resumes the adopted turn once none of its approvals is pending any more (decided here or on another node). */
  private async resumeIfDecided(sessionId: string, turnId: string): Promise<void> {
    try {
      if (this.dormant.get(sessionId)?.turnId !== turnId) return;
      const pending = await this.options.store.approvals.listPending({ sessionId });
      if (!pending.some((approval) => approval.turnId === turnId)) await this.resumeParked(sessionId, turnId);
    } catch (error) {
      // The next notification or heartbeat checks again.
      this.options.logger.warn(`Could not check the approvals of parked turn ${turnId} of session ${sessionId}: ${messageOf(error)}`);
    }
  }

  /** Ends an adopted turn as stopped, under its lease, then lets the lease go: to this node's next turn when one waits here, else to any node. */
  private async endDormant(dormant: Dormant): Promise<void> {
    try {
      await this.options.executor.stopParked(dormant.sessionId, dormant.turnId);
    } finally {
      dormant.stop();
      if (this.options.lives.get(dormant.sessionId)?.next) dormant.lease.handOver();
      else await dormant.lease.release();
    }
  }

  /** Chains a turn after the session's previous one, however that ended (a failure was logged where it happened). */
  private chain<T extends object>(
    sessionId: string,
    live: LiveSession,
    turnId: string,
    start: () => TurnStart,
    fields: T,
    admitting?: Pick<QueuedTurn, "admitted" | "accepting">,
  ): ChainedTurn & T {
    return this.detached(() => {
      const agent = this.options.agent();
      // `done` is set below, before anyone can see the turn.
      const turn = { ...fields, turnId, controller: new AbortController() } as ChainedTurn & T;
      const run = async (): Promise<TurnEnd> => {
        // Checked again after each wait, with nothing awaited between the last check and the start: a message admitted meanwhile is waited for too.
        while (admitting && admitting.accepting.size > 0) await Promise.all(admitting.accepting.keys());
        // Every transaction that admitted a message into it rolled back: there is nothing to answer.
        if (admitting && admitting.admitted.length === 0) return WITHDRAWN;
        if (live.next?.turnId === turnId) live.next = undefined;
        live.running = turn;
        return this.options.executor.run(sessionId, turnId, start(), agent, turn.controller);
      };
      const done = live.tail.then(run, run);
      turn.done = done;
      live.tail = done;
      const settled = () => {
        if (live.running === turn) live.running = undefined;
        if (live.tail === done) this.options.lives.rest(sessionId, live);
      };
      void done.then(settled, (error: unknown) => {
        this.options.logger.error(`Turn ${turnId} of session ${sessionId} failed to end cleanly: ${messageOf(error)}`);
        settled();
      });
      return turn;
    });
  }
}
