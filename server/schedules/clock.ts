/**
 * Time for schedules and reminders. Production uses the system clock; tests
 * inject a `ManualClock` and move time forward without waiting.
 */

export interface Clock {
  now(): Date;
  /** Calls `fn` once when the clock reaches `at` (at once if it already has). Returns the cancel function. */
  setTimer(at: Date, fn: () => void): () => void;
}

/** setTimeout cannot wait longer than about 24.8 days; longer waits are chained. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => new Date(),
  setTimer(at, fn) {
    let handle: NodeJS.Timeout;
    const wait = () => {
      const remaining = at.getTime() - Date.now();
      if (remaining > MAX_TIMEOUT_MS) {
        handle = setTimeout(wait, MAX_TIMEOUT_MS);
      } else {
        handle = setTimeout(fn, Math.max(0, remaining));
      }
      // A pending wake-up never keeps the process alive on its own.
      handle.unref();
    };
    wait();
    return () => clearTimeout(handle);
  },
};

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
}

/** A clock that only moves when told to; due timers run in time order as it advances. */
export class ManualClock implements Clock {
  private current: number;
  private seq = 0;
  private readonly timers = new Map<number, PendingTimer>();

  constructor(start: Date | string) {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  setTimer(at: Date, fn: () => void): () => void {
    const seq = this.seq++;
    this.timers.set(seq, { at: at.getTime(), seq, fn });
    return () => this.timers.delete(seq);
  }

  /** Timers not yet fired. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves forward by `ms`, firing due timers in order and letting the work they start settle in between. */
  async advance(ms: number): Promise<void> {
    await this.advanceTo(new Date(this.current + ms));
  }

  async advanceTo(target: Date | string): Promise<void> {
    const end = new Date(target).getTime();
    for (;;) {
      const next = [...this.timers.values()]
        .filter((timer) => timer.at <= end)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.timers.delete(next.seq);
      this.current = Math.max(this.current, next.at);
      next.fn();
      await settle();
    }
    this.current = Math.max(this.current, end);
    await settle();
  }
}

/** Lets promise chains and I/O callbacks started by a timer run before time moves on. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}
