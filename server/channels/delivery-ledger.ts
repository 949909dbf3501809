/**
 * Platform retries (Slack's `X-Slack-Retry-Num`, GitHub redeliveries) carry
 * the id of a delivery already handled; the ledger remembers ids for a day in
 * the state store, so a retry never starts a second turn, even after a restart.
 * The GitHub pack also records a digest of each body it takes (source
 * `github-body:<channel>`), so a captured payload replayed under a new id is
 * refused too.
 *
 * Ids are claimed in the same transaction that stores what their delivery
 * brought (the message, the turn it starts): a crash either loses both, and
 * the platform's retry is handled as new, or keeps both, and the retry is a
 * duplicate. Never a claimed id whose message is gone.
 */
import type { Clock } from "../schedules/clock.ts";
import type { Store } from "../store/index.ts";

const PREFIX = "bdk:delivery:";
const KEEP_MS = 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

/** One id a delivery is known by (its delivery id, the digest of its body). */
export interface DeliveryKey {
  source: string;
  id: string;
}

export type Claimed<T> = { duplicate: true } | { duplicate: false; result: T };

export class DeliveryLedger {
  private lastPurge = 0;

  constructor(
    private readonly store: Store,
    private readonly agentName: string,
    private readonly clock: Clock,
  ) {}

  /** Whether `source`/`id` was claimed (within the last day): a cheap early answer; only `claim` records. */
  seen(source: string, id: string): boolean {
    return this.store.kv.get(this.agentName, keyOf({ source, id })) !== undefined;
  }

  /**
   * When none of `keys` was claimed yet, runs `handle` and records them all
   * in one transaction (a `handle` that throws records nothing); otherwise
   * the delivery is a duplicate and nothing runs.
   */
  claim<T>(keys: readonly DeliveryKey[], handle: () => T): Claimed<T> {
    const now = this.clock.now();
    const claimed = this.store.transaction((): Claimed<T> => {
      if (keys.some((key) => this.store.kv.get(this.agentName, keyOf(key)) !== undefined)) return { duplicate: true };
      for (const key of keys) this.store.kv.put(this.agentName, keyOf(key), now.toISOString());
      return { duplicate: false, result: handle() };
    });
    this.purge(now);
    return claimed;
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

function keyOf({ source, id }: DeliveryKey): string {
  return `${PREFIX}${source}:${id}`;
}
