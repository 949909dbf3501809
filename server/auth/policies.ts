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

/**
 * Headers that say a proxy relayed the request (lower case, as Node gives
 * them). Any of them makes `localDevStrict` refuse: a proxy on loopback must
 * not turn remote callers into local ones. Besides the standard ones, the
 * client-address headers of common CDNs, load balancers and meshes.
 */
export const FORWARDING_HEADERS = [
  "forwarded",
  "forwarded-for",
  "via",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-forwarded-server",
  "x-original-forwarded-for",
  "x-real-ip",
  "x-client-ip",
  "x-cluster-client-ip",
  "x-proxyuser-ip",
  "true-client-ip",
  "cf-connecting-ip",
  "fastly-client-ip",
  "x-envoy-external-address",
];

/** Whether a raw request's headers (`IncomingMessage.headers`) carry any forwarding header. */
export function hasForwardingHeaders(headers: Readonly<Record<string, unknown>>): boolean {
  return FORWARDING_HEADERS.some((name) => name in headers);
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith("::ffff:") ? address.slice(7) : address;
  return plain === "::1" || plain.startsWith("127.");
}

/** `service:bearer-<8 hex of the token's hash>`: stable per token, reveals nothing of it. */
export function bearerPrincipal(token: string): Principal {
  return { type: "service", id: `bearer-${createHash("sha256").update(token).digest("hex").slice(0, 8)}` };
}

/** Visible ASCII: what survives an HTTP header intact (parsers strip surrounding whitespace). */
const TOKEN_CHARACTERS = /^[\x21-\x7e]+$/;

/** Why `token` cannot be a bearer token, or undefined. An empty one would admit `Bearer ` followed by any blank. */
export function bearerTokenProblem(token: string): string | undefined {
  if (token === "") return "is empty";
  if (!TOKEN_CHARACTERS.test(token)) return "must be visible ASCII characters without spaces";
  return undefined;
}

/** The bearer policies for `tokens`; throws naming `source` when one of them cannot be a token. */
export function bearerPolicies(tokens: readonly string[], source = "bearer token"): AuthPolicy[] {
  return tokens.map((token) => {
    const problem = bearerTokenProblem(token);
    if (problem) throw new BdkError("invalid_request", `${source} ${problem}`);
    return { kind: "bearer", token };
  });
}

/**
 * `Authorization: <scheme> <credentials>` with the scheme matched
 * case-insensitively (RFC 7235) and the credentials compared exactly as sent
 * (no trimming: a Unicode blank is not a token), in constant time.
 */
function bearerMatches(expected: string, header: string | null): boolean {
  const match = header === null ? null : /^([^ ]+) +(.*)$/s.exec(header);
  if (!match || match[1].toLowerCase() !== "bearer") return false;
  const given = createHash("sha256").update(match[2]).digest();
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
