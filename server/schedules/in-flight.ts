/**
 * Work a timer started and nobody awaits (a schedule tick, a reminder
 * firing): kept until it settles, so `idle()` can wait for it and a stop can
 * let it end before handing a lease on. A failure goes to `onError`, never
 * to an unhandled rejection.
 */
/** How long a stop waits for the work in flight (a handler's firing) before it hands its lease on anyway: the claims keep a tick once-only. */
export const STOP_GRACE_MS = 5000;

export class InFlight {
  private readonly work = new Set<Promise<void>>();

  add(work: Promise<unknown>, onError: (error: unknown) => void): void {
    const tracked = work.then(() => undefined, onError);
    this.work.add(tracked);
    void tracked.finally(() => this.work.delete(tracked));
  }

  /** Resolves once nothing is in flight, including work added meanwhile; after `graceMs` at the latest when given. */
  async idle(graceMs?: number): Promise<void> {
    const settled = (async () => {
      while (this.work.size > 0) await Promise.allSettled([...this.work]);
    })();
    if (graceMs === undefined) return settled;
    let timer: NodeJS.Timeout | undefined;
    // Real time, not the automation clock: a stuck handler must not hold a shutdown for ever.
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs).unref()));
    await Promise.race([settled, grace]);
    clearTimeout(timer);
  }
}
