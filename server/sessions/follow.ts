import type { Logger } from "../host/logger.ts";
import { messageOf } from "../protocol/errors.ts";
import type { AnyBdkEvent } from "../protocol/events.ts";
import type { EventBus } from "./event-bus.ts";

/** A run of stored events in some form (objects or NDJSON text), and the index of its last event. */
export interface ReplayBatch<T> {
  batch: T;
  lastIndex: number;
}

export interface FollowSessionOptions<T> {
  bus: EventBus;
  sessionId: string;
  fromIndex: number;
  /** The stored events from `fromIndex`, read from the store batch by batch. */
  replay: AsyncIterable<ReplayBatch<T>>;
  /** Turns live events into the delivered form. */
  fromLive: (events: readonly AnyBdkEvent[]) => T;
  /** Hands a batch to the follower (a socket write); one that throws or rejects ends the follow. */
  deliver: (batch: T) => void | Promise<void>;
  /** The session was deleted: nothing more will come. */
  ended?: () => void;
  /** The replay could not be read: nothing more will come. */
  failed: (error: unknown) => void;
  /** Where a follower's failed delivery is reported: it is the follower's fault, not the turn's nor the replay's. */
  logger: Pick<Logger, "warn">;
}

/**
 * Replays stored events from `fromIndex`, then delivers live ones, each index
 * exactly once and in order. Subscribing before the replay closes the window
 * in which an event could be appended between the read and the subscription;
 * live events published while the replay is still being read wait for it.
 * Returns at once the function that stops following (the replay included).
 * A delivery that fails (the follower's socket is gone) is logged and ends
 * the follow: it never reaches the appender that published the event, nor
 * passes for a replay failure.
 */
export function followSession<T>(options: FollowSessionOptions<T>): () => void {
  let next = options.fromIndex;
  let replaying = true;
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
      if (replaying) buffered.push(...events);
      else takeLive(events);
    },
    options.ended,
  );
  const stop = () => {
    stopped = true;
    unsubscribe();
  };
  const replay = async () => {
    for await (const { batch, lastIndex } of options.replay) {
      if (stopped) return;
      if (lastIndex < next) continue;
      next = lastIndex + 1;
      deliver(batch);
    }
    if (stopped) return;
    replaying = false;
    if (buffered.length > 0) takeLive(buffered.splice(0));
  };
  replay().catch((error: unknown) => {
    if (stopped) return;
    stop();
    options.failed(error);
  });
  return stop;
}
