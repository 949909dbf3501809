import type { AnyBdkEvent } from "../../api/types.ts";

/**
 * The events of one session in index order, each index at most once: the
 * replay after a reload and the live stream may overlap, the view must not.
 */
export class EventLog {
  readonly events: AnyBdkEvent[] = [];
  private readonly seen = new Set<number>();

  /** Adds an event; false if its index was already there (or it is not an event). */
  add(event: AnyBdkEvent): boolean {
    if (!event || typeof event.index !== "number" || typeof event.type !== "string" || this.seen.has(event.index)) return false;
    this.seen.add(event.index);
    const last = this.events[this.events.length - 1];
    this.events.push(event);
    if (last && last.index > event.index) this.events.sort((a, b) => a.index - b.index);
    return true;
  }

  get lastIndex(): number {
    return this.events.length ? this.events[this.events.length - 1].index : -1;
  }
}
