import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { githubSignature, slackSignature, verifyGitHubSignature, verifySlackSignature } from "./signatures.ts";

const body = Buffer.from('{"type":"event_callback","event":{"type":"app_mention"}}');

describe("Slack signatures", () => {
  const secret = "8f742231b10e8888abcd99yyyzzz85a5";
  const now = new Date("2026-03-02T09:00:00Z");
  const timestamp = String(now.getTime() / 1000);

  it("is v0= HMAC-SHA256 of v0:<timestamp>:<body>", () => {
    const expected = `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
    expect(slackSignature(secret, timestamp, body)).toBe(expected);
    expect(verifySlackSignature({ secret, timestamp, signature: expected, rawBody: body, now })).toEqual({ ok: true });
  });

  it("refuses a wrong signature, a changed body, a stale or missing timestamp", () => {
    const signature = slackSignature(secret, timestamp, body);
    expect(verifySlackSignature({ secret, timestamp, signature: `${signature.slice(0, -1)}0`, rawBody: body, now }).ok).toBe(false);
    expect(verifySlackSignature({ secret, timestamp, signature, rawBody: Buffer.concat([body, Buffer.from(" ")]), now }).ok).toBe(false);
    const later = new Date(now.getTime() + 5 * 60_000 + 1000);
    expect(verifySlackSignature({ secret, timestamp, signature, rawBody: body, now: later })).toEqual({
      ok: false,
      reason: "the request timestamp is more than five minutes old",
    });
    expect(verifySlackSignature({ secret, timestamp: null, signature, rawBody: body, now }).ok).toBe(false);
    expect(verifySlackSignature({ secret, timestamp, signature: null, rawBody: body, now }).ok).toBe(false);
  });
});

describe("GitHub signatures", () => {
  it("is sha256= HMAC-SHA256 of the raw body", () => {
    const expected = `sha256=${createHmac("sha256", "s3cret").update(body).digest("hex")}`;
    expect(githubSignature("s3cret", body)).toBe(expected);
    expect(verifyGitHubSignature({ secret: "s3cret", signature: expected, rawBody: body })).toEqual({ ok: true });
    expect(verifyGitHubSignature({ secret: "other", signature: expected, rawBody: body }).ok).toBe(false);
    expect(verifyGitHubSignature({ secret: "s3cret", signature: "sha256=short", rawBody: body }).ok).toBe(false);
    expect(verifyGitHubSignature({ secret: "s3cret", signature: null, rawBody: body }).ok).toBe(false);
  });
});

describe("over the raw bytes", () => {
  // Not valid UTF-8: decoding and re-encoding would turn 0xff into EF BF BD and break the signature.
  const raw = Buffer.concat([Buffer.from('{"title":"caf'), Buffer.from([0xff]), Buffer.from('"}')]);

  it("verifies a body whose bytes are not valid UTF-8", () => {
    const signature = `sha256=${createHmac("sha256", "s3cret").update(raw).digest("hex")}`;
    expect(verifyGitHubSignature({ secret: "s3cret", signature, rawBody: raw })).toEqual({ ok: true });
    expect(verifyGitHubSignature({ secret: "s3cret", signature, rawBody: Buffer.from(raw.toString("utf8")) }).ok).toBe(false);
    const now = new Date("2026-03-02T09:00:00Z");
    const timestamp = String(now.getTime() / 1000);
    const slack = `v0=${createHmac("sha256", "s").update(Buffer.concat([Buffer.from(`v0:${timestamp}:`), raw])).digest("hex")}`;
    expect(verifySlackSignature({ secret: "s", timestamp, signature: slack, rawBody: raw, now })).toEqual({ ok: true });
  });
});
