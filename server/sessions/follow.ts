import type { AnyBdkEvent } from "../protocol/events.ts";
import type { EventBus } from "./event-bus.ts";

/** A run of stored events in some form (objects or NDJSON text), and the index of its last event. */
export interface ReplayBatch<T> {
  batch: T;
  lastIndex: number;
}

/**
 * Replays stored events from `fromIndex`, then delivers live ones, each index
 * exactly once and in order. Subscribing before the replay closes the window
 * in which an event could be appended between the read and the subscription.
 * `fromLive` turns live events into the delivered form; `ended` is called
 * when the session is deleted. Returns the function that stops following.
 */
export function followSession<T>(
  bus: EventBus,
  sessionId: string,
  fromIndex: number,
  replay: Iterable<ReplayBatch<T>>,
  fromLive: (events: readonly AnyBdkEvent[]) => T,
  deliver: (batch: T) => void,
  ended?: () => void,
): () => void {
  let next = fromIndex;
  let replaying = true;
  const buffered: AnyBdkEvent[] = [];

  const takeLive = (events: readonly AnyBdkEvent[]) => {
    const fresh = events.filter((event) => event.index >= next);
    if (fresh.length === 0) return;
    next = fresh[fresh.length - 1].index + 1;
    deliver(fromLive(fresh));
  };

  const unsubscribe = bus.subscribe(
    sessionId,
    (events) => {
      if (replaying) buffered.push(...events);
      else takeLive(events);
    },
    ended,
  );
  for (const { batch, lastIndex } of replay) {
    if (lastIndex < next) continue;
    next = lastIndex + 1;
    deliver(batch);
  }
  replaying = false;
  if (buffered.length > 0) takeLive(buffered.splice(0));
  return unsubscribe;
}
