/** Webhook signatures of the platform packs, compared in constant time. */
import { createHmac, timingSafeEqual } from "node:crypto";

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/** Slack rejects requests whose timestamp is more than five minutes away from now. */
export const SLACK_MAX_SKEW_SECONDS = 5 * 60;

/** Signatures are over the bytes as they arrived: decoding first would change bytes that are not valid UTF-8. */
function hmacSha256Hex(secret: string, ...parts: (Buffer | string)[]): string {
  const hmac = createHmac("sha256", secret);
  for (const part of parts) hmac.update(part);
  return hmac.digest("hex");
}

function sameText(expected: string, given: string): boolean {
  const a = Buffer.from(expected, "utf8");
  const b = Buffer.from(given, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:<timestamp>:<raw body>">` plus `X-Slack-Request-Timestamp`. */
export function slackSignature(secret: string, timestamp: string, rawBody: Buffer): string {
  return `v0=${hmacSha256Hex(secret, `v0:${timestamp}:`, rawBody)}`;
}

export function verifySlackSignature(input: {
  secret: string;
  timestamp: string | null;
  signature: string | null;
  rawBody: Buffer;
  now: Date;
}): SignatureCheck {
  if (!input.timestamp || !/^\d+$/.test(input.timestamp)) return { ok: false, reason: "missing or malformed X-Slack-Request-Timestamp" };
  if (!input.signature) return { ok: false, reason: "missing X-Slack-Signature" };
  const skew = Math.abs(input.now.getTime() / 1000 - Number(input.timestamp));
  if (skew > SLACK_MAX_SKEW_SECONDS) return { ok: false, reason: "the request timestamp is more than five minutes old" };
  if (!sameText(slackSignature(input.secret, input.timestamp, input.rawBody), input.signature)) {
    return { ok: false, reason: "the signature does not match" };
  }
  return { ok: true };
}

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`. */
export function githubSignature(secret: string, rawBody: Buffer): string {
  return `sha256=${hmacSha256Hex(secret, rawBody)}`;
}

export function verifyGitHubSignature(input: { secret: string; signature: string | null; rawBody: Buffer }): SignatureCheck {
  if (!input.signature) return { ok: false, reason: "missing X-Hub-Signature-256" };
  if (!sameText(githubSignature(input.secret, input.rawBody), input.signature)) {
    return { ok: false, reason: "the signature does not match" };
  }
  return { ok: true };
}
