import type { AnyBdkEvent } from "../protocol/events.ts";

export type EventListener = (events: readonly AnyBdkEvent[]) => void;

/**
 * In-process fan-out of persisted events to live followers, per session.
 * Publishing happens only after the store committed the events.
 */
export class EventBus {
  private readonly listeners = new Map<string, Set<EventListener>>();

  subscribe(sessionId: string, listener: EventListener): () => void {
    let set = this.listeners.get(sessionId);
    if (!set) {
      set = new Set();
      this.listeners.set(sessionId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(sessionId);
    };
  }

  publish(sessionId: string, events: readonly AnyBdkEvent[]): void {
    const set = this.listeners.get(sessionId);
    if (!set) return;
    for (const listener of [...set]) listener(events);
  }

  followerCount(sessionId: string): number {
    return this.listeners.get(sessionId)?.size ?? 0;
  }
}
