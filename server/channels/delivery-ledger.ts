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
import type { AsyncStore } from "../store/async-store.ts";

const PREFIX = "bdk:delivery:";
const KEEP_MS = 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

/** One id a delivery is known by (its delivery id, the digest of its body). */
export interface DeliveryKey {
  source: string;
  id: string;
}

export type Claimed<T> = { duplicate: true } | { duplicate: false; result: T };

/** Thrown inside the claim's transaction to roll it back when a key was taken. */
const DUPLICATE = new Error("duplicate delivery");

export class DeliveryLedger {
  private lastPurge = 0;

  constructor(
    private readonly store: AsyncStore,
    private readonly agentName: string,
    private readonly clock: Clock,
  ) {}

  /** Whether `source`/`id` was claimed (within the last day): a cheap early answer; only `claim` records. */
  async seen(source: string, id: string): Promise<boolean> {
    return (await this.store.kv.get(this.agentName, keyOf({ source, id }))) !== undefined;
  }

  /**
   * When none of `keys` was claimed yet, runs `handle` and records them all
   * in one transaction (`handle` runs in it: a message it accepts is stored
   * in it; a `handle` that throws records nothing); otherwise the delivery
   * is a duplicate and nothing runs.
   */
  async claim<T>(keys: readonly DeliveryKey[], handle: () => Promise<T>): Promise<Claimed<T>> {
    const now = this.clock.now();
    let claimed: Claimed<T>;
    try {
      claimed = await this.store.transaction(async (tx): Promise<Claimed<T>> => {
        for (const key of keys) {
          // Taken by another delivery (another node's too, committed meanwhile): roll back the keys claimed before this one.
          if (!(await tx.kv.claim(this.agentName, keyOf(key), now.toISOString()))) throw DUPLICATE;
        }
        return { duplicate: false, result: await handle() };
      });
    } catch (error) {
      if (error !== DUPLICATE) throw error;
      claimed = { duplicate: true };
    }
    await this.purge(now);
    return claimed;
  }

  private async purge(now: Date): Promise<void> {
    if (now.getTime() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now.getTime();
    const cutoff = new Date(now.getTime() - KEEP_MS).toISOString();
    for (const entry of await this.store.kv.list(this.agentName, PREFIX)) {
      if (typeof entry.value === "string" && entry.value < cutoff) await this.store.kv.delete(this.agentName, entry.key);
    }
  }
}

function keyOf({ source, id }: DeliveryKey): string {
  return `${PREFIX}${source}:${id}`;
}
