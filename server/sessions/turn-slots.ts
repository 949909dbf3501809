/**
 * Caps how many turns run at once per agent (`concurrency.maxRunningTurns`).
 * Waiters start in arrival order; `onQueued` tells a waiter its position.
 */
export class TurnSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number = Number.POSITIVE_INFINITY) {}

  async acquire(onQueued: (position: number) => void, signal?: AbortSignal): Promise<() => void> {
    if (this.running < this.limit) {
      this.running++;
      return this.releaser();
    }
    onQueued(this.waiting.length + 1);
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener("abort", cancel);
        resolve();
      };
      const cancel = () => {
        const at = this.waiting.indexOf(wake);
        if (at !== -1) this.waiting.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", cancel, { once: true });
      this.waiting.push(wake);
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    };
  }
}
