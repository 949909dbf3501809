/**
 * Fires armed reminders when they are due. All armed reminders are loaded at
 * start into a min-heap with one clock timer on its top; creating or
 * cancelling one updates the heap. Of the processes sharing a state store,
 * the one holding the `reminders` lease fires stored reminders; inline `run`
 * reminders fire in the process that holds the function. A periodic resync
 * picks up reminders other processes created (or took over).
 */
import type { Logger } from "../host/logger.ts";
import { messageOf } from "../protocol/errors.ts";
import type { Clock } from "../schedules/clock.ts";
import type { Store } from "../store/index.ts";
import type { ReminderRow } from "../store/types.ts";
import type { ReminderBook } from "./reminder-book.ts";
import type { StoredReminder } from "./reminder-spec.ts";

export const REMINDERS_LEASE = "reminders";

export interface ReminderTimersOptions {
  book: ReminderBook;
  store: Store;
  clock: Clock;
  logger: Logger;
  /** This process, as a lease holder. */
  holder: string;
  /** Fires the tick of reminder `id` due at `dueAt` (once across processes: see fire-reminder.ts). */
  fire(id: string, dueAt: string): Promise<unknown>;
  leaseMs?: number;
  resyncMs?: number;
}

interface Entry {
  at: number;
  id: string;
}

export class ReminderTimers {
  private heap: Entry[] = [];
  /** id → the due time its live heap entry has (older entries are stale). */
  private due = new Map<string, number>();
  private cancelTimer?: () => void;
  private timerAt = Number.POSITIVE_INFINITY;
  private cancelResync?: () => void;
  private unsubscribe?: () => void;
  private running = false;

  constructor(private readonly options: ReminderTimersOptions) {}

  /** Loads every armed reminder and arms the timer; returns how many are armed. */
  start(): number {
    this.running = true;
    this.unsubscribe = this.options.book.onChange((row) => this.track(row));
    const armed = this.resync();
    this.scheduleResync();
    return armed;
  }

  stop(): void {
    this.running = false;
    this.unsubscribe?.();
    this.cancelTimer?.();
    this.cancelResync?.();
    this.cancelTimer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    this.options.store.leases.release(REMINDERS_LEASE, this.options.holder);
  }

  /** Rebuilds the heap from the store. */
  private resync(): number {
    this.heap = [];
    this.due = new Map();
    const rows = this.options.store.reminders.list({ status: "armed" });
    for (const row of rows) this.track(row, false);
    this.arm();
    return this.due.size;
  }

  private scheduleResync(): void {
    const every = this.options.resyncMs ?? 60_000;
    const { clock } = this.options;
    this.cancelResync = clock.setTimer(new Date(clock.now().getTime() + every), () => {
      if (!this.running) return;
      this.resync();
      this.scheduleResync();
    });
  }

  private track(row: ReminderRow, arm = true): void {
    const spec = row.spec as unknown as StoredReminder;
    const firesHere = !spec.anonymous || this.options.book.runOf(row.id) !== undefined;
    if (row.status !== "armed" || !row.nextFireAt || !firesHere) {
      this.due.delete(row.id);
      return;
    }
    const at = Date.parse(row.nextFireAt);
    if (this.due.get(row.id) === at) return;
    this.due.set(row.id, at);
    push(this.heap, { at, id: row.id });
    if (arm) this.arm();
  }

  /** One clock timer, on the earliest live entry. */
  private arm(): void {
    if (!this.running) return;
    while (this.heap.length > 0 && this.due.get(this.heap[0].id) !== this.heap[0].at) pop(this.heap);
    const next = this.heap[0]?.at ?? Number.POSITIVE_INFINITY;
    if (next === this.timerAt) return;
    this.cancelTimer?.();
    this.timerAt = next;
    this.cancelTimer = Number.isFinite(next) ? this.options.clock.setTimer(new Date(next), () => this.tick()) : undefined;
  }

  private tick(): void {
    this.timerAt = Number.POSITIVE_INFINITY;
    this.cancelTimer = undefined;
    if (!this.running) return;
    const now = this.options.clock.now().getTime();
    let leader: boolean | undefined;
    while (this.heap.length > 0 && this.heap[0].at <= now) {
      const entry = pop(this.heap);
      if (this.due.get(entry.id) !== entry.at) continue;
      this.due.delete(entry.id);
      const row = this.options.store.reminders.get(entry.id);
      if (!row || row.status !== "armed" || row.nextFireAt === null) continue;
      if (Date.parse(row.nextFireAt) !== entry.at) {
        this.track(row, false);
        continue;
      }
      // Stored reminders fire in the lease holder only; an inline one only where its function lives (here).
      if ((row.spec as unknown as StoredReminder).anonymous !== true) {
        leader ??= this.options.store.leases.tryAcquire(REMINDERS_LEASE, this.options.holder, this.options.leaseMs ?? 120_000);
        if (!leader) continue;
      }
      this.options.fire(entry.id, row.nextFireAt).catch((error) =>
        this.options.logger.warn(`Reminder ${entry.id} could not fire: ${messageOf(error)}`, { reminder: entry.id }),
      );
    }
    this.arm();
  }
}

function push(heap: Entry[], entry: Entry): void {
  heap.push(entry);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent].at <= heap[i].at) break;
    [heap[parent], heap[i]] = [heap[i], heap[parent]];
    i = parent;
  }
}

function pop(heap: Entry[]): Entry {
  const top = heap[0];
  const last = heap.pop()!;
  if (heap.length > 0) {
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && heap[left].at < heap[smallest].at) smallest = left;
      if (right < heap.length && heap[right].at < heap[smallest].at) smallest = right;
      if (smallest === i) break;
      [heap[i], heap[smallest]] = [heap[smallest], heap[i]];
      i = smallest;
    }
  }
  return top;
}
