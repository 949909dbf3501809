import type { AnyBdkEvent } from "../protocol/events.ts";

export type EventListener = (events: readonly AnyBdkEvent[]) => void;

interface Subscriber {
  events: EventListener;
  /** The session is gone (deleted): no event will follow. */
  ended?: () => void;
}

/**
 * In-process fan-out of persisted events to live followers, per session.
 * Publishing happens only after the store committed the events.
 */
export class EventBus {
  private readonly subscribers = new Map<string, Set<Subscriber>>();

  subscribe(sessionId: string, listener: EventListener, ended?: () => void): () => void {
    let set = this.subscribers.get(sessionId);
    if (!set) {
      set = new Set();
      this.subscribers.set(sessionId, set);
    }
    const subscriber: Subscriber = { events: listener, ended };
    set.add(subscriber);
    return () => {
      set.delete(subscriber);
      if (set.size === 0 && this.subscribers.get(sessionId) === set) this.subscribers.delete(sessionId);
    };
  }

  publish(sessionId: string, events: readonly AnyBdkEvent[]): void {
    const set = this.subscribers.get(sessionId);
    if (!set) return;
    for (const subscriber of [...set]) subscriber.events(events);
  }

  /** Tells every follower of the session that it ended for good, and drops them. */
  end(sessionId: string): void {
    const set = this.subscribers.get(sessionId);
    if (!set) return;
    this.subscribers.delete(sessionId);
    for (const subscriber of set) subscriber.ended?.();
  }
}
