/**
 * The event log of every session of one agent: append (persist, then
 * publish), the per-tick batching of turn events, observers, replay + live
 * follow, and the end of a deleted session's streams.
 */
import type { Logger } from "../host/logger.ts";
import { messageOf } from "../protocol/errors.ts";
import type { AnyBdkEvent, EventDraft } from "../protocol/events.ts";
import { toNdjson } from "../protocol/ndjson.ts";
import type { AsyncStore } from "../store/async-store.ts";
import type { Store } from "../store/index.ts";
import { EventBus } from "./event-bus.ts";
import { followSession } from "./follow.ts";

export type EventObserver = (sessionId: string, events: readonly AnyBdkEvent[]) => void;

/** The last line a follower of a deleted session gets: not a stored event (it has no index). */
export function sessionDeletedLine(sessionId: string, at: Date): string {
  return `${JSON.stringify({ type: "session.deleted", sessionId, at: at.toISOString() })}\n`;
}

export class SessionEventLog {
  private readonly bus = new EventBus();
  /** Turn events waiting to be stored together (one transaction per burst, not per event). */
  private readonly pending = new Map<string, EventDraft[]>();
  /** Rows to write in the transaction of the session's next stored events (a tool call's outcome in the ledger). */
  private readonly pendingWrites = new Map<string, Array<() => void>>();
  private readonly observers = new Set<EventObserver>();
  /** Sessions deleted while a turn was still ending there: it has nowhere to record anything. */
  private readonly muted = new Set<string>();
  private closed = false;

  constructor(
    private readonly store: Store,
    /** The same store behind the async contract: what replay reads (the move of the runtime onto it, issue 16). */
    private readonly reads: AsyncStore,
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {}

  /** Persists, then publishes: a follower never sees an event the store could lose. */
  append(sessionId: string, drafts: EventDraft[]): AnyBdkEvent[] {
    if (this.closed || this.muted.has(sessionId)) return [];
    const pending = this.pending.get(sessionId);
    if (pending) this.pending.delete(sessionId);
    const all = pending ? [...pending, ...drafts] : drafts;
    const writes = this.pendingWrites.get(sessionId);
    if (writes) this.pendingWrites.delete(sessionId);
    const stored = writes
      ? this.store.transaction(() => {
          for (const write of writes) write();
          return this.store.events.append(sessionId, all) as AnyBdkEvent[];
        })
      : (this.store.events.append(sessionId, all) as AnyBdkEvent[]);
    // Inside a wider transaction (a delivery claimed with its message), followers hear of it after the commit.
    this.store.afterCommit(() => this.publish(sessionId, stored));
    return pending ? stored.slice(pending.length) : stored;
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
  writeSoon(sessionId: string, write: () => void): void {
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
   * into a store that is closing.
   */
  close(): void {
    for (const sessionId of new Set([...this.pending.keys(), ...this.pendingWrites.keys()])) this.flush(sessionId);
    this.closed = true;
  }

  /**
   * Sees every recorded event of every session (after it is stored and
   * published), e.g. for channel delivery events. Returns the unsubscribe.
   */
  observe(observer: EventObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
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
    const replay = mapAsync(this.reads.events.iterate(sessionId, start, 1000), (batch) => ({
      batch: batch as readonly AnyBdkEvent[],
      lastIndex: batch[batch.length - 1].index,
    }));
    return followSession({ bus: this.bus, sessionId, fromIndex: start, replay, fromLive: (events) => events, deliver, ended, failed: (error) => this.replayFailed(sessionId, error, ended) });
  }

  /** `follow` as NDJSON text; a deleted session's stream gets `sessionDeletedLine` last. */
  followNdjson(sessionId: string, start: number, deliver: (text: string) => void, ended?: (lastLine: string) => void): () => void {
    const replay = mapAsync(this.reads.events.iterateNdjson(sessionId, start, 1000), ({ text, lastIndex }) => ({ batch: text, lastIndex }));
    return followSession({
      bus: this.bus,
      sessionId,
      fromIndex: start,
      replay,
      fromLive: toNdjson,
      deliver,
      ended: () => ended?.(sessionDeletedLine(sessionId, this.now())),
      // A stream cut short ends with no last line: the client reconnects from the index it reached.
      failed: (error) => this.replayFailed(sessionId, error, () => ended?.("")),
    });
  }

  /** The stored events from `start` as one NDJSON text. */
  async ndjson(sessionId: string, start: number): Promise<string> {
    let text = "";
    for await (const batch of this.reads.events.iterateNdjson(sessionId, start, 2000)) text += batch.text;
    return text;
  }

  private replayFailed(sessionId: string, error: unknown, end: (() => void) | undefined): void {
    this.logger.error(`Could not replay the events of session ${sessionId}: ${messageOf(error)}`);
    end?.();
  }

  private flush(sessionId: string): void {
    if (!this.pending.has(sessionId) && !this.pendingWrites.has(sessionId)) return;
    try {
      this.append(sessionId, []);
    } catch (error) {
      // Nobody awaits this flush: a failure is logged, never thrown into the event loop (that would end the server).
      this.logger.error(`Could not store events of session ${sessionId}: ${messageOf(error)}`);
    }
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
