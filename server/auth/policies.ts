import { createHash, timingSafeEqual } from "node:crypto";
import { BdkError } from "../protocol/errors.ts";
import type { Principal } from "../protocol/events.ts";

/** The auth policies of spec/http-api.md, as plain descriptors (channels may list their own). */
export type AuthPolicy = { kind: "localDevStrict" } | { kind: "bearer"; token: string } | { kind: "anonymous" };

/** What the server knows of a request's origin, read from the raw request before any framework touched it. */
export interface RequestFacts {
  /** The socket's remote address. */
  peer: string | undefined;
  /** The client sent proxy-forwarding headers (`Forwarded`, `X-Forwarded-For`, `X-Real-IP`, ...). */
  forwarded: boolean;
  authorization: string | null;
}

export type AuthResult =
  | { ok: true; principal: Principal; policy: AuthPolicy["kind"] }
  | { ok: false; status: 401 | 403; message: string };

export const FORWARDING_HEADERS = [
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-real-ip",
  "via",
];

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith("::ffff:") ? address.slice(7) : address;
  return plain === "::1" || plain.startsWith("127.");
}

/** `service:bearer-<8 hex of the token's hash>`: stable per token, reveals nothing of it. */
export function bearerPrincipal(token: string): Principal {
  return { type: "service", id: `bearer-${createHash("sha256").update(token).digest("hex").slice(0, 8)}` };
}

function bearerMatches(expected: string, header: string | null): boolean {
  if (!header?.startsWith("Bearer ")) return false;
  const given = createHash("sha256").update(header.slice(7).trim()).digest();
  return timingSafeEqual(given, createHash("sha256").update(expected).digest());
}

/** The first policy that accepts sets the principal. */
export function authenticate(policies: readonly AuthPolicy[], facts: RequestFacts): AuthResult {
  for (const policy of policies) {
    switch (policy.kind) {
      case "anonymous":
        return { ok: true, principal: { type: "user", id: "anonymous" }, policy: policy.kind };
      case "bearer":
        if (bearerMatches(policy.token, facts.authorization)) {
          return { ok: true, principal: bearerPrincipal(policy.token), policy: policy.kind };
        }
        break;
      case "localDevStrict":
        if (!facts.forwarded && isLoopback(facts.peer)) {
          return { ok: true, principal: { type: "user", id: "local" }, policy: policy.kind };
        }
        break;
    }
  }
  if (policies.some((policy) => policy.kind === "bearer")) {
    return { ok: false, status: 401, message: "A valid bearer token is required: send Authorization: Bearer <token>." };
  }
  return {
    ok: false,
    status: 403,
    message: facts.forwarded
      ? "localDevStrict refuses proxied requests (forwarding headers present): start the server with --bearer-token for remote access."
      : "localDevStrict admits direct loopback requests only: start the server with --bearer-token for remote access.",
  };
}

/** The accepted result, or the refusal as a `BdkError` (401 `unauthenticated` or 403 `forbidden`). */
export function requireAuth(policies: readonly AuthPolicy[], facts: RequestFacts): Extract<AuthResult, { ok: true }> {
  const auth = authenticate(policies, facts);
  if (!auth.ok) throw new BdkError(auth.status === 401 ? "unauthenticated" : "forbidden", auth.message);
  return auth;
}
