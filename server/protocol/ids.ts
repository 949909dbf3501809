import { randomBytes } from "node:crypto";

/** Crockford base32, as ULIDs use. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

let lastTime = -1;
let lastRandom: number[] = [];

/**
 * A monotonic ULID: 10 chars of time, 16 of randomness; ids made in the same
 * millisecond increase, so sorting by id sorts by creation.
 */
export function ulid(now: number = Date.now()): string {
  if (now <= lastTime) {
    incrementRandom();
    now = lastTime;
  } else {
    lastTime = now;
    lastRandom = Array.from(randomBytes(16), (byte) => byte % 32);
  }
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time + lastRandom.map((digit) => ALPHABET[digit]).join("");
}

function incrementRandom(): void {
  for (let i = lastRandom.length - 1; i >= 0; i--) {
    if (lastRandom[i] < 31) {
      lastRandom[i]++;
      return;
    }
    lastRandom[i] = 0;
  }
}

export const newSessionId = (): string => `ses_${ulid()}`;
export const newTurnId = (): string => `turn_${ulid()}`;
export const newApprovalId = (): string => `apr_${ulid()}`;
export const newToolCallId = (): string => `call_${ulid()}`;
export const newContinuationToken = (): string => `http:${randomBytes(18).toString("base64url")}`;
