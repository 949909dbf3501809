import type { Logger } from "../host/logger.ts";
import { messageOf } from "../protocol/errors.ts";
import type { AnyBdkEvent } from "../protocol/events.ts";
import type { EventBus } from "./event-bus.ts";

/** A run of stored events in some form (objects or NDJSON text), and the index of its last event. */
export interface ReplayBatch<T> {
  batch: T;
  lastIndex: number;
}

/** Wake-ups for events appended by other processes (store/multi-node.ts): `wake(head)` says the session's log may now reach `head`. */
export type WatchAppends = (wake: (head: number) => void) => () => void;

export interface FollowSessionOptions<T> {
  bus: EventBus;
  sessionId: string;
  fromIndex: number;
  /** The stored events from an index on, read from the store batch by batch: the replay, and each catch-up after a wake-up. */
  read: (fromIndex: number) => AsyncIterable<ReplayBatch<T>>;
  /** On a store other nodes append to: the hint that the table holds events past the last delivered. */
  watch?: WatchAppends;
  /** Turns live events into the delivered form. */
  fromLive: (events: readonly AnyBdkEvent[]) => T;
  /** Hands a batch to the follower (a socket write); one that throws or rejects ends the follow. */
  deliver: (batch: T) => void | Promise<void>;
  /** The session was deleted: nothing more will come. */
  ended?: () => void;
  /** The stored events could not be read: nothing more will come. */
  failed: (error: unknown) => void;
  /** Where a follower's failed delivery is reported: it is the follower's fault, not the turn's nor the replay's. */
  logger: Pick<Logger, "warn">;
}

/**
 * Replays stored events from `fromIndex`, then delivers live ones, each index
 * exactly once and in order. Subscribing before the replay closes the window
 * in which an event could be appended between the read and the subscription;
 * live events published while the store is being read wait for the read.
 * Events of other nodes come from the store too: a wake-up past the last
 * delivered index starts another read from there (never from the wake-up's
 * payload), so a lost wake-up only delays them until the next.
 * Returns at once the function that stops following (the reads included).
 * A delivery that fails (the follower's socket is gone) is logged and ends
 * the follow: it never reaches the appender that published the event, nor
 * passes for a read failure.
 */
export function followSession<T>(options: FollowSessionOptions<T>): () => void {
  let next = options.fromIndex;
  let reading = true;
  /** The highest head a wake-up announced while reading: read again if this read stopped short of it. */
  let wantedHead = -1;
  let stopped = false;
  const buffered: AnyBdkEvent[] = [];

  const undelivered = (error: unknown) => {
    if (stopped) return;
    stop();
    options.logger.warn(`A follower of session ${options.sessionId} is no longer followed: delivery failed: ${messageOf(error)}`, {
      sessionId: options.sessionId,
    });
  };
  const deliver = (batch: T) => {
    try {
      const written = options.deliver(batch);
      if (written instanceof Promise) written.catch(undelivered);
    } catch (error) {
      undelivered(error);
    }
  };

  const takeLive = (events: readonly AnyBdkEvent[]) => {
    const fresh = events.filter((event) => event.index >= next);
    if (fresh.length === 0) return;
    next = fresh[fresh.length - 1].index + 1;
    deliver(options.fromLive(fresh));
  };

  const unsubscribe = options.bus.subscribe(
    options.sessionId,
    (events) => {
      if (reading) buffered.push(...events);
      else takeLive(events);
    },
    options.ended,
  );
  const unwatch = options.watch?.((head) => {
    if (stopped || head < next) return;
    if (reading) wantedHead = Math.max(wantedHead, head);
    else void readStored();
  });
  const stop = () => {
    stopped = true;
    unsubscribe();
    unwatch?.();
  };
  // While reading, `next` moves only here: a batch starts exactly at `next` (live events wait in `buffered`).
  async function readStored(): Promise<void> {
    reading = true;
    try {
      do {
        for await (const { batch, lastIndex } of options.read(next)) {
          if (stopped) return;
          if (lastIndex < next) continue;
          next = lastIndex + 1;
          deliver(batch);
        }
        if (stopped) return;
        if (buffered.length > 0) takeLive(buffered.splice(0));
      } while (wantedHead >= next);
      reading = false;
    } catch (error) {
      if (stopped) return;
      stop();
      options.failed(error);
    }
  }
  void readStored();
  return stop;
}
