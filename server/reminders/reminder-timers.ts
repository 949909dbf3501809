/**
 * Fires armed reminders when they are due. All armed reminders are loaded at
 * start into a min-heap with one clock timer on its top; creating or
 * cancelling one updates the heap. Of the processes (or nodes) sharing a
 * store, the one holding the `reminders` lease fires stored reminders, and
 * each tick is claimed in the store (fire-reminder.ts), so it fires once even
 * while a lease passes on; inline `run` reminders fire in the process that
 * holds the function. A node that is not the holder drops the due entries; the
 * periodic resync (`resyncMs`) re-reads armed reminders, so reminders other
 * nodes created, and those a stopped holder left due, are fired by the node
 * holding the lease next.
 */
import type { Logger } from "../host/logger.ts";
import { messageOf } from "../protocol/errors.ts";
import type { Clock } from "../schedules/clock.ts";
import { InFlight, STOP_GRACE_MS } from "../schedules/in-flight.ts";
import { releaseOnStop } from "../schedules/release-on-stop.ts";
import type { AsyncStore } from "../store/async-store.ts";
import type { ReminderRow } from "../store/types.ts";
import type { ReminderBook } from "./reminder-book.ts";
import type { StoredReminder } from "./reminder-spec.ts";

export const REMINDERS_LEASE = "reminders";

/** Firings in flight per process: each holds a store transaction, so this stays well under a Postgres pool's size. */
const DEFAULT_CONCURRENCY = 4;

export interface ReminderTimersOptions {
  book: ReminderBook;
  store: AsyncStore;
  clock: Clock;
  logger: Logger;
  /** This process, as a lease holder. */
  holder: string;
  /** Fires the tick of reminder `id` due at `dueAt` (once across processes: see fire-reminder.ts). */
  fire(id: string, dueAt: string): Promise<unknown>;
  leaseMs?: number;
  resyncMs?: number;
  /** Firings at most in flight at once (default 4). */
  concurrency?: number;
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
  /** Due entries waiting for a firing slot. */
  private readonly queue: Entry[] = [];
  /** id → the due time of its firing in flight: a resync that still reads the row armed for it does not queue it again. */
  private readonly firing = new Map<string, number>();
  /** Ticks, resyncs and firings not yet settled. */
  private readonly inFlight = new InFlight();

  constructor(private readonly options: ReminderTimersOptions) {}

  /** Loads every armed reminder and arms the timer; resolves to how many are armed. */
  async start(): Promise<number> {
    this.running = true;
    this.unsubscribe = this.options.book.onChange((row) => this.track(row));
    const armed = await this.resync();
    this.scheduleResync();
    return armed;
  }

  /** Stops firing, lets the firings in flight end (a few seconds at most), and hands the lease on. */
  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.cancelTimer?.();
    this.cancelResync?.();
    this.cancelTimer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    this.queue.length = 0;
    await this.inFlight.idle(STOP_GRACE_MS);
    await releaseOnStop(this.options.store, REMINDERS_LEASE, this.options.holder, this.options.logger);
  }

  /** Resolves once no tick, resync or firing is in flight (and none it started). */
  idle(): Promise<void> {
    return this.inFlight.idle();
  }

  private track(row: ReminderRow, arm = true): void {
    const spec = row.spec as unknown as StoredReminder;
    const firesHere = !spec.anonymous || this.options.book.runOf(row.id) !== undefined;
    if (row.status !== "armed" || !row.nextFireAt || !firesHere) {
      this.due.delete(row.id);
      return;
    }
    const at = Date.parse(row.nextFireAt);
    if (this.due.get(row.id) === at || this.firing.get(row.id) === at) return;
    this.due.set(row.id, at);
    push(this.heap, { at, id: row.id });
    if (arm) this.arm();
  }

  private run(work: Promise<unknown>, what: string): void {
    this.inFlight.add(work, (error) => this.options.logger.warn(`Reminders: ${what} failed: ${messageOf(error)}`));
  }

  /** Rebuilds the heap from the store. */
  private async resync(): Promise<number> {
    const rows = await this.options.store.reminders.list({ status: "armed" });
    this.heap = [];
    this.due = new Map();
    // An entry waiting for a slot stays tracked: the row it fires is re-read then.
    for (const entry of this.queue) this.due.set(entry.id, entry.at);
    for (const row of rows) if (!this.due.has(row.id)) this.track(row, false);
    this.arm();
    return this.due.size - this.queue.length;
  }

  private scheduleResync(): void {
    const every = this.options.resyncMs ?? 60_000;
    const { clock } = this.options;
    this.cancelResync = clock.setTimer(new Date(clock.now().getTime() + every), () => {
      if (!this.running) return;
      this.run(this.resync(), "a resync");
      this.scheduleResync();
    });
  }

  /** One clock timer, on the earliest live entry. */
  private arm(): void {
    if (!this.running) return;
    while (this.heap.length > 0 && this.due.get(this.heap[0].id) !== this.heap[0].at) pop(this.heap);
    const next = this.heap[0]?.at ?? Number.POSITIVE_INFINITY;
    if (next === this.timerAt) return;
    this.cancelTimer?.();
    this.timerAt = next;
    this.cancelTimer = Number.isFinite(next) ? this.options.clock.setTimer(new Date(next), () => this.run(this.tick(), "a tick")) : undefined;
  }

  /** Takes the due entries off the heap at once (a second tick never sees them), then queues them for firing. */
  private async tick(): Promise<void> {
    this.timerAt = Number.POSITIVE_INFINITY;
    this.cancelTimer = undefined;
    if (!this.running) return;
    const now = this.options.clock.now().getTime();
    const dueNow: Entry[] = [];
    while (this.heap.length > 0 && this.heap[0].at <= now) {
      const entry = pop(this.heap);
      if (this.due.get(entry.id) === entry.at) dueNow.push(entry);
    }
    this.arm();
    if (dueNow.length === 0) return;
    // Stored reminders fire in the lease holder only; an inline one only where its function lives (here), which `track` checked.
    const stored = dueNow.some((entry) => this.options.book.runOf(entry.id) === undefined);
    const leader = stored && (await this.options.store.leases.tryAcquire(REMINDERS_LEASE, this.options.holder, this.options.leaseMs ?? 120_000));
    for (const entry of dueNow) {
      if (!leader && this.options.book.runOf(entry.id) === undefined) {
        this.due.delete(entry.id);
        continue;
      }
      this.queue.push(entry);
    }
    this.pump();
  }

  private pump(): void {
    const limit = this.options.concurrency ?? DEFAULT_CONCURRENCY;
    while (this.running && this.firing.size < limit && this.queue.length > 0) {
      const entry = this.queue.shift()!;
      if (this.due.get(entry.id) !== entry.at) continue;
      this.due.delete(entry.id);
      this.firing.set(entry.id, entry.at);
      this.run(
        this.attempt(entry).finally(() => {
          if (this.firing.get(entry.id) === entry.at) this.firing.delete(entry.id);
          this.pump();
        }),
        `reminder ${entry.id}`,
      );
    }
  }

  /** Fires the entry if its row is still armed for that time; a row that moved on is tracked anew. */
  private async attempt(entry: Entry): Promise<void> {
    const row = await this.options.store.reminders.get(entry.id);
    if (!row || row.status !== "armed" || row.nextFireAt === null) return;
    if (Date.parse(row.nextFireAt) !== entry.at) {
      this.track(row);
      return;
    }
    await this.options.fire(entry.id, row.nextFireAt).catch((error: unknown) =>
      this.options.logger.warn(`Reminder ${entry.id} could not fire: ${messageOf(error)}`, { reminder: entry.id }),
    );
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
