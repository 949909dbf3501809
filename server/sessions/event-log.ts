/**
 * The event log of every session of one agent: append (persist, then
 * publish), the per-tick batching of turn events, observers, replay + live
 * follow, and the end of a deleted session's streams.
 */
import type { Logger } from "../host/logger.ts";
import { BdkError, messageOf } from "../protocol/errors.ts";
import type { AnyBdkEvent, EventDraft } from "../protocol/events.ts";
import { toNdjson } from "../protocol/ndjson.ts";
import type { AsyncStore, AsyncTransaction } from "../store/async-store.ts";
import { EventBus } from "./event-bus.ts";
import type { AppendFence } from "./turn-lease.ts";
import { followSession } from "./follow.ts";

export type EventObserver = (sessionId: string, events: readonly AnyBdkEvent[]) => void;

/** The last line a follower of a deleted session gets: not a stored event (it has no index). */
export function sessionDeletedLine(sessionId: string, at: Date): string {
  return `${JSON.stringify({ type: "session.deleted", sessionId, at: at.toISOString() })}\n`;
}

/** A row to store with a session's next events, in their transaction. */
export type PendingWrite = (tx: AsyncTransaction) => Promise<unknown>;

/** Appends inside `SessionEventLog.transaction`: stored in it, published after its commit. */
export type TransactionAppend = (drafts: EventDraft[]) => Promise<AnyBdkEvent[]>;

interface Buffered {
  drafts: EventDraft[];
  writes: PendingWrite[];
}

const NOTHING_BUFFERED: Buffered = { drafts: [], writes: [] };

/**
 * Appends go to the async store one at a time per session, in the order they
 * were called (a session's log holds a chain of them): the store gives the
 * indexes, so one in flight per session keeps them gap-free and published in
 * order whatever the dialect (Postgres answers out of order otherwise).
 */
export class SessionEventLog {
  private readonly bus = new EventBus();
  /** Turn events waiting to be stored together (one transaction per burst, not per event). */
  private readonly pending = new Map<string, EventDraft[]>();
  /** Rows to write in the transaction of the session's next stored events (a tool call's outcome in the ledger). */
  private readonly pendingWrites = new Map<string, PendingWrite[]>();
  /** The last append (or log transaction) of each session still in flight: the next one waits for it. */
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly observers = new Set<EventObserver>();
  /** Sessions deleted while a turn was still ending there: it has nowhere to record anything. */
  private readonly muted = new Set<string>();
  /** Sessions whose appends are fenced by a lease (turn-lease.ts): its token goes with each append there. */
  private readonly fences = new Map<string, AppendFence>();
  private closed = false;

  constructor(
    private readonly store: AsyncStore,
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {}

  /**
   * Persists, then publishes: a follower never sees an event the store could
   * lose. Takes the session's buffered events along (stored first); resolves
   * with the drafts' events.
   */
  append(sessionId: string, drafts: EventDraft[]): Promise<AnyBdkEvent[]> {
    if (this.closed || this.muted.has(sessionId)) return Promise.resolve([]);
    const buffered = this.takeBuffered(sessionId);
    return this.serially(sessionId, () => this.storeAndPublish(sessionId, buffered, drafts));
  }

  /**
   * Runs `work` in one store transaction that holds the session's log: its
   * appends (through `append`) are stored in it, after the events buffered
   * before this call, and published once it commits. Other appends to the
   * session wait for it. Once the log is closed it runs nothing: the store
   * may be closing too, and the caller gets a reason, not a driver's error.
   */
  transaction<T>(sessionId: string, work: (tx: AsyncTransaction, append: TransactionAppend) => Promise<T>): Promise<T> {
    if (this.closed) {
      return Promise.reject(new BdkError("not_ready", `The event log is closed (the server is stopping): session ${sessionId} records nothing more.`));
    }
    const taken = this.takeBuffered(sessionId);
    let buffered: Buffered | undefined = taken;
    return this.serially(sessionId, () =>
      this.store.transaction(async (tx) => {
        // At the start: the work may write rows before it appends, and they must be refused with the append.
        await this.fences.get(sessionId)?.check();
        const append: TransactionAppend = async (drafts) => {
          const carried = buffered ?? NOTHING_BUFFERED;
          buffered = undefined;
          if (this.closed || this.muted.has(sessionId)) return [];
          for (const write of carried.writes) await write(tx);
          const stored = await this.write(sessionId, carried, drafts, tx);
          tx.afterCommit(() => this.publish(sessionId, stored));
          return stored.slice(carried.drafts.length);
        };
        const result = await work(tx, append);
        if (buffered && (buffered.drafts.length > 0 || buffered.writes.length > 0)) await append([]);
        return result;
      }).catch(async (error: unknown) => {
        this.fences.get(sessionId)?.failed(error);
        // The rollback took the events buffered before this call with it: they belong to a turn, not to the failed work.
        if (taken !== NOTHING_BUFFERED && !this.closed && !this.muted.has(sessionId)) {
          await this.storeAndPublish(sessionId, taken, []).catch((lost: unknown) =>
            this.logger.error(`Could not store the buffered events of session ${sessionId}: ${messageOf(lost)}`),
          );
        }
        throw error;
      }),
    );
  }

  /**
   * The first events of a session created in `tx` (nothing else can be
   * appending there yet); published after its commit.
   */
  async appendToNewSession(tx: AsyncTransaction, sessionId: string, drafts: EventDraft[]): Promise<void> {
    const stored = (await tx.events.append(sessionId, drafts)) as AnyBdkEvent[];
    tx.afterCommit(() => this.publish(sessionId, stored));
  }

  /**
   * A turn's events are buffered until the end of the current macrotask (or
   * the next direct append to the session), then stored and published
   * together: same order, same indexes, far fewer transactions.
   */
  appendSoon(sessionId: string, draft: EventDraft): void {
    if (this.closed || this.muted.has(sessionId)) return;
    const pending = this.pending.get(sessionId);
    if (pending) {
      pending.push(draft);
      return;
    }
    this.pending.set(sessionId, [draft]);
    setImmediate(() => this.flush(sessionId));
  }

  /**
   * Runs `write` in the transaction that stores the session's next events
   * (those buffered now, or the next append): a row that belongs with an
   * event costs no transaction of its own.
   */
  writeSoon(sessionId: string, write: PendingWrite): void {
    if (this.closed || this.muted.has(sessionId)) return;
    const writes = this.pendingWrites.get(sessionId);
    if (writes) {
      writes.push(write);
      return;
    }
    this.pendingWrites.set(sessionId, [write]);
    if (!this.pending.has(sessionId)) setImmediate(() => this.flush(sessionId));
  }

  /**
   * Stores what is still buffered, then records nothing more: a turn left
   * parked at shutdown (whose aborted calls may still finish) must not write
   * into a store that is closing. Resolves once every append has settled.
   */
  async close(): Promise<void> {
    for (const sessionId of new Set([...this.pending.keys(), ...this.pendingWrites.keys()])) this.flush(sessionId);
    this.closed = true;
    await Promise.all(this.inFlight.values());
  }

  /**
   * Sees every recorded event of every session (after it is stored and
   * published), e.g. for channel delivery events. Returns the unsubscribe.
   */
  observe(observer: EventObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /**
   * From now on every append to the session is fenced by `fence` (a lease's
   * token): once the store refuses it, nothing more is stored there.
   * Returns the removal.
   */
  fence(sessionId: string, fence: AppendFence): () => void {
    this.fences.set(sessionId, fence);
    return () => {
      if (this.fences.get(sessionId) === fence) this.fences.delete(sessionId);
    };
  }

  /** The session is being deleted: drop what it would still record, and end its followers' streams. */
  mute(sessionId: string): void {
    this.muted.add(sessionId);
    this.pending.delete(sessionId);
    this.pendingWrites.delete(sessionId);
    this.bus.end(sessionId);
  }

  isMuted(sessionId: string): boolean {
    return this.muted.has(sessionId);
  }

  /** The deleted session's last turn has ended: nothing will try to record there any more. */
  unmute(sessionId: string): void {
    this.muted.delete(sessionId);
  }

  /** Replays stored events from `start`, then follows live; `ended` when the session is deleted. */
  follow(sessionId: string, start: number, deliver: (events: readonly AnyBdkEvent[]) => void, ended?: () => void): () => void {
    return followSession({
      ...this.sources(sessionId, start),
      read: (from) =>
        mapAsync(this.store.events.iterate(sessionId, from, 1000), (batch) => ({
          batch: batch as readonly AnyBdkEvent[],
          lastIndex: batch[batch.length - 1].index,
        })),
      fromLive: (events) => events,
      deliver,
      ended,
      failed: (error) => this.replayFailed(sessionId, error, ended),
      logger: this.logger,
    });
  }

  /** `follow` as NDJSON text; a deleted session's stream gets `sessionDeletedLine` last. */
  followNdjson(sessionId: string, start: number, deliver: (text: string) => void, ended?: (lastLine: string) => void): () => void {
    return followSession({
      ...this.sources(sessionId, start),
      read: (from) => mapAsync(this.store.events.iterateNdjson(sessionId, from, 1000), ({ text, lastIndex }) => ({ batch: text, lastIndex })),
      fromLive: toNdjson,
      deliver,
      ended: () => ended?.(sessionDeletedLine(sessionId, this.now())),
      // A stream cut short ends with no last line: the client reconnects from the index it reached.
      failed: (error) => this.replayFailed(sessionId, error, () => ended?.("")),
      logger: this.logger,
    });
  }

  /** Where a follower's events come from: this process's bus, and on a shared store the other nodes' appends. */
  private sources(sessionId: string, fromIndex: number) {
    const shared = this.store.shared;
    return {
      bus: this.bus,
      sessionId,
      fromIndex,
      watch: shared ? (wake: (head: number) => void) => shared.watchAppends(sessionId, wake) : undefined,
    };
  }

  /** The stored events from `start` as one NDJSON text. */
  async ndjson(sessionId: string, start: number): Promise<string> {
    let text = "";
    for await (const batch of this.store.events.iterateNdjson(sessionId, start, 2000)) text += batch.text;
    return text;
  }

  private replayFailed(sessionId: string, error: unknown, end: (() => void) | undefined): void {
    this.logger.error(`Could not replay the events of session ${sessionId}: ${messageOf(error)}`);
    end?.();
  }

  /** The session's buffered events and rows, taken now: whatever is buffered after this goes with a later append. */
  private takeBuffered(sessionId: string): Buffered {
    const drafts = this.pending.get(sessionId);
    if (drafts) this.pending.delete(sessionId);
    const writes = this.pendingWrites.get(sessionId);
    if (writes) this.pendingWrites.delete(sessionId);
    return drafts || writes ? { drafts: drafts ?? [], writes: writes ?? [] } : NOTHING_BUFFERED;
  }

  /** Runs `work` once the session's previous append has settled (however it ended). */
  private serially<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.inFlight.get(sessionId);
    // Nothing in flight: the work starts now (on SQLite its statements run before this returns).
    const result = previous ? previous.then(work) : work();
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.set(sessionId, settled);
    void settled.then(() => {
      if (this.inFlight.get(sessionId) === settled) this.inFlight.delete(sessionId);
    });
    return result;
  }

  private async write(sessionId: string, buffered: Buffered, drafts: EventDraft[], repositories: Pick<AsyncStore, "events">): Promise<AnyBdkEvent[]> {
    // Deleted while this append waited for the previous one: the session is gone, so is what it would record.
    if (this.muted.has(sessionId)) return [];
    const all = buffered.drafts.length > 0 ? [...buffered.drafts, ...drafts] : drafts;
    if (all.length === 0) return [];
    return (await repositories.events.append(sessionId, all, this.fences.get(sessionId)?.token)) as AnyBdkEvent[];
  }

  /**
   * Stores the buffered events and rows, then `drafts`, and publishes them;
   * resolves with the drafts' events. Events alone are one fenced append
   * statement; rows go with them in a transaction, refused with the append.
   */
  private async storeAndPublish(sessionId: string, buffered: Buffered, drafts: EventDraft[]): Promise<AnyBdkEvent[]> {
    let stored: AnyBdkEvent[];
    try {
      stored =
        buffered.writes.length === 0
          ? await this.write(sessionId, buffered, drafts, this.store)
          : await this.store.transaction(async (tx) => {
              for (const write of buffered.writes) await write(tx);
              return this.write(sessionId, buffered, drafts, tx);
            });
    } catch (error) {
      this.fences.get(sessionId)?.failed(error);
      throw error;
    }
    this.publish(sessionId, stored);
    return stored.slice(buffered.drafts.length);
  }

  private flush(sessionId: string): void {
    if (!this.pending.has(sessionId) && !this.pendingWrites.has(sessionId)) return;
    this.append(sessionId, []).catch((error: unknown) => {
      // Nobody awaits this flush: a failure is logged, never thrown into the event loop (that would end the server).
      this.logger.error(`Could not store events of session ${sessionId}: ${messageOf(error)}`);
    });
  }

  private publish(sessionId: string, events: AnyBdkEvent[]): void {
    if (events.length === 0) return;
    this.bus.publish(sessionId, events);
    for (const observer of this.observers) observer(sessionId, events);
  }
}

async function* mapAsync<A, B>(source: AsyncIterable<A>, map: (item: A) => B): AsyncGenerator<B> {
  for await (const item of source) yield map(item);
}
