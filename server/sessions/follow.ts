import type { AnyBdkEvent } from "../protocol/events.ts";
import type { EventBus } from "./event-bus.ts";

export interface EventSource {
  bus: EventBus;
  /** Stored events from `fromIndex`, in batches, oldest first. */
  replay(sessionId: string, fromIndex: number): Iterable<readonly AnyBdkEvent[]>;
}

/**
 * Replays stored events from `fromIndex`, then delivers live ones, each index
 * exactly once and in order. Subscribing before the replay closes the window
 * in which an event could be appended between the read and the subscription.
 * Returns a function that stops following.
 */
export function followSession(
  source: EventSource,
  sessionId: string,
  fromIndex: number,
  deliver: (events: readonly AnyBdkEvent[]) => void,
): () => void {
  let next = fromIndex;
  let replaying = true;
  const buffered: AnyBdkEvent[] = [];

  const take = (events: readonly AnyBdkEvent[]) => {
    const fresh = events.filter((event) => event.index >= next);
    if (fresh.length === 0) return;
    next = fresh[fresh.length - 1].index + 1;
    deliver(fresh);
  };

  const unsubscribe = source.bus.subscribe(sessionId, (events) => {
    if (replaying) buffered.push(...events);
    else take(events);
  });
  for (const batch of source.replay(sessionId, fromIndex)) take(batch);
  replaying = false;
  if (buffered.length > 0) take(buffered.splice(0));
  return unsubscribe;
}
