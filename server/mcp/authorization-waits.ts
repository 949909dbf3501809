/**
 * Model calls parked until a person authorizes their connection (the dev
 * Connect flow). In memory only: a restart ends the parked turns as
 * `interrupted`, like any running turn.
 */
export class AuthorizationWaits {
  private readonly waiting = new Map<string, Set<() => void>>();

  /** Resolves at the next `release(connection)`; rejects with the signal's reason when it fires first. */
  wait(connection: string, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const set = this.waiting.get(connection) ?? new Set();
      this.waiting.set(connection, set);
      const done = () => {
        set.delete(wake);
        if (set.size === 0 && this.waiting.get(connection) === set) this.waiting.delete(connection);
        signal.removeEventListener("abort", aborted);
      };
      const wake = () => {
        done();
        resolve();
      };
      const aborted = () => {
        done();
        reject(signal.reason);
      };
      set.add(wake);
      signal.addEventListener("abort", aborted, { once: true });
    });
  }

  /** Wakes every call waiting for `connection`. */
  release(connection: string): void {
    for (const wake of [...(this.waiting.get(connection) ?? [])]) wake();
  }

  /** How many calls wait for `connection`. */
  count(connection: string): number {
    return this.waiting.get(connection)?.size ?? 0;
  }
}
