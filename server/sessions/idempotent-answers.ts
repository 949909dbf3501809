/**
 * `Idempotency-Key` on follow-ups: the answer a message got is stored with
 * the key in the transaction that accepted the message, so a client whose
 * 202 was lost can send the same request again (with its old token) and get
 * the same answer instead of a 409, and the message is accepted once.
 * Answers are kept for a day.
 */
import { createHash } from "node:crypto";
import { BdkError } from "../protocol/errors.ts";
import type { AsyncStore } from "../store/async-store.ts";
import type { JsonObject } from "../store/types.ts";

const KEEP_MS = 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;
const KEY_SYNTAX = /^[\x21-\x7e]{1,255}$/;

export interface Answered<T> {
  answer: T;
  /** True when this is the stored answer of an earlier request with the key. */
  replayed: boolean;
}

export class IdempotentAnswers {
  private lastPurge = 0;

  constructor(
    private readonly store: AsyncStore,
    private readonly now: () => Date,
  ) {}

  /**
   * The stored answer for `key` in the session, or `accept()`'s, stored with
   * the key in one transaction (`accept` runs in it: its own transactions
   * are savepoints of it). The same key with a different request is refused.
   */
  async once<T extends JsonObject>(sessionId: string, key: string, request: unknown, accept: () => Promise<T>): Promise<Answered<T>> {
    if (!KEY_SYNTAX.test(key)) {
      throw new BdkError("invalid_request", "Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID, for instance).");
    }
    const digest = createHash("sha256").update(JSON.stringify(request)).digest("base64url");
    const answered = await this.store.transaction(async (tx): Promise<Answered<T>> => {
      const earlier = await tx.idempotency.get(sessionId, key);
      if (earlier) {
        if (earlier.requestDigest !== digest) {
          throw new BdkError("invalid_request", `Idempotency-Key ${JSON.stringify(key)} was already used for a different message in this session.`);
        }
        return { answer: earlier.answer as T, replayed: true };
      }
      const answer = await accept();
      await tx.idempotency.put(sessionId, key, digest, answer);
      return { answer, replayed: false };
    });
    await this.purge();
    return answered;
  }

  private async purge(): Promise<void> {
    const now = this.now().getTime();
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    await this.store.idempotency.purgeBefore(new Date(now - KEEP_MS).toISOString());
  }
}
