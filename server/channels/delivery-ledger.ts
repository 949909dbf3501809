/**
 * Platform retries (Slack's `X-Slack-Retry-Num`, GitHub redeliveries) carry
 * the id of a delivery already handled; the ledger remembers ids for a day in
 * the state store, so a retry never starts a second turn, even after a restart.
 *
 * An id is claimed in the same transaction that stores what its delivery
 * brought (the message, the turn it starts): a crash either loses both, and
 * the platform's retry is handled as new, or keeps both, and the retry is a
 * duplicate. Never a claimed id whose message is gone.
 */
import type { Clock } from "../schedules/clock.ts";
import type { Store } from "../store/index.ts";

const PREFIX = "bdk:delivery:";
const KEEP_MS = 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

export type Claimed<T> = { duplicate: true } | { duplicate: false; result: T };

export class DeliveryLedger {
  private lastPurge = 0;

  constructor(
    private readonly store: Store,
    private readonly agentName: string,
    private readonly clock: Clock,
  ) {}

  /** Whether `source`/`id` was handled already (a cheap early answer; `claim` decides). */
  seen(source: string, id: string): boolean {
    return this.store.kv.get(this.agentName, keyOf(source, id)) !== undefined;
  }

  /**
   * The first time `source`/`id` is claimed, runs `handle` and records the
   * id in one transaction (a `handle` that throws records nothing); later
   * claims are duplicates and run nothing.
   */
  claim<T>(source: string, id: string, handle: () => T): Claimed<T> {
    const key = keyOf(source, id);
    const now = this.clock.now();
    const claimed = this.store.transaction((): Claimed<T> => {
      if (this.store.kv.get(this.agentName, key) !== undefined) return { duplicate: true };
      this.store.kv.put(this.agentName, key, now.toISOString());
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

function keyOf(source: string, id: string): string {
  return `${PREFIX}${source}:${id}`;
}
