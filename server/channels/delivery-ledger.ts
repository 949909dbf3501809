/**
 * Platform retries (Slack's `X-Slack-Retry-Num`, GitHub redeliveries) carry
 * the id of a delivery already handled; the ledger remembers ids for a day in
 * the state store, so a retry never starts a second turn, even after a restart.
 * The GitHub pack also records a digest of each body it takes (source
 * `github-body:<channel>`), so a captured payload replayed under a new id is
 * refused too.
 */
import type { Clock } from "../schedules/clock.ts";
import type { Store } from "../store/index.ts";

const PREFIX = "bdk:delivery:";
const KEEP_MS = 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

export class DeliveryLedger {
  private lastPurge = 0;

  constructor(
    private readonly store: Store,
    private readonly agentName: string,
    private readonly clock: Clock,
  ) {}

  /** Whether `source`/`id` was claimed (within the last day); only `claim` records. */
  seen(source: string, id: string): boolean {
    return this.store.kv.get(this.agentName, `${PREFIX}${source}:${id}`) !== undefined;
  }

  /** True the first time `source`/`id` is seen; the check and the record are one synchronous step. */
  claim(source: string, id: string): boolean {
    const key = `${PREFIX}${source}:${id}`;
    const now = this.clock.now();
    if (this.store.kv.get(this.agentName, key) !== undefined) return false;
    this.store.kv.put(this.agentName, key, now.toISOString());
    this.purge(now);
    return true;
  }

  private purge(now: Date): void {
    if (now.getTime() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now.getTime();
    const cutoff = new Date(now.getTime() - KEEP_MS).toISOString();
    for (const entry of this.store.kv.list(this.agentName, PREFIX)) {
      if (typeof entry.value === "string" && entry.value < cutoff) this.store.kv.delete(this.agentName, entry.key);
    }
  }
}
