/**
 * Generated hostile HTTP inputs: bad methods, paths and escapes, query
 * values, headers, bodies (wrong JSON, deep nesting, huge, wrong types),
 * chunked and slow requests. Deterministic for a seed, so a finding can be
 * replayed.
 */
import type { RawRequest } from "./raw-request.ts";

export interface FuzzCase extends RawRequest {
  /** The family the case comes from, for the report. */
  family: string;
}

/** What the cases refer to: a real session (so routes reach their handlers) and a real tool. */
export interface FuzzTargets {
  sessionId: string;
  continuationToken: string;
  toolName: string;
}

/** mulberry32: a small seeded generator, enough to make the inputs reproducible. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  return { next, int, pick };
}
type Random = ReturnType<typeof generator>;

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE", "PROPFIND", "MKCOL", "PURGE", "LINK", "FOO", "get", "M-SEARCH", "SEARCH", "QUERY"];

const BAD_SEGMENTS = [
  "%E0%A4%A", "%", "%%", "%zz", "%2", "%C0%AF", "%ED%A0%80", "%FF%FE", "%00", "..", "%2e%2e", "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "....//", "%252e%252e", "%5c..%5c", "😀", "%F0%9F%98%80", "a".repeat(300), "x".repeat(5000), "~", ";", "%3B", "%23", "%3F",
  "ses_does_not_exist", "null", "undefined", "0", "-1", "[object Object]", "%7B%7D", "CON", "nul", ".", "%2F", "a%2Fb",
];

const QUERY_VALUES = ["", "1.5", "-1", "0", "1e309", "NaN", "Infinity", "0x10", "9".repeat(40), "%E0%A4%A", "%", "abc", "true", "maybe", "[]", "{}", "%00", "1,2", " 3 ", "-0"];

function routes(t: FuzzTargets): Array<{ path: string; query?: string[] }> {
  const s = t.sessionId;
  return [
    { path: "/v1/session" },
    { path: `/v1/session/${s}` },
    { path: `/v1/session/${s}/stop` },
    { path: `/v1/session/${s}/stream`, query: ["startIndex", "follow"] },
    { path: `/v1/session/${s}/events`, query: ["startIndex"] },
    { path: `/v1/session/${s}/approvals/apr_nope` },
    { path: "/v1/sessions", query: ["q", "limit", "cursor"] },
    { path: "/v1/approvals" },
    { path: "/v1/tools" },
    { path: `/v1/tools/${t.toolName}` },
    { path: "/v1/tools/no_such_tool" },
    { path: "/v1/info" },
    { path: "/v1/logs", query: ["since"] },
    { path: "/v1/artifacts", query: ["kind", "key", "limit"] },
    { path: "/v1/artifacts/art_nope" },
    { path: "/v1/artifacts/art_nope/content" },
    { path: "/v1/evals" },
    { path: "/v1/evals/runs", query: ["limit"] },
    { path: "/v1/evals/runs/run_nope" },
    { path: "/v1/evals/runs/run_a/compare/run_b" },
    { path: "/v1/evals/sessions" },
    { path: "/v1/memory" },
    { path: "/v1/memory/mem_nope" },
    { path: "/v1/mcp" },
    { path: "/v1/mcp/tools" },
    { path: "/v1/channels/orders/question" },
    { path: "/v1/channels/nope/x" },
    { path: "/v1/agents" },
    { path: "/v1/dev/schedules" },
    { path: "/v1/nothing/here" },
    { path: "/health" },
    { path: "/" },
    { path: "/playground" },
  ];
}

function jsonBodies(t: FuzzTargets, r: Random): Buffer {
  const deep = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth);
  const variants: Array<() => string> = [
    () => "{",
    () => "{\"message\":",
    () => "not json",
    () => "[]",
    () => "null",
    () => "42",
    () => "\"a string\"",
    () => "true",
    () => "{\"message\": 123}",
    () => "{\"message\": null}",
    () => "{\"message\": [\"a\"]}",
    () => "{\"message\": {\"nested\": true}}",
    () => "{\"message\": \"\"}",
    () => `{"message": "hi", "continuationToken": ${r.pick(["1", "null", "[]", "\"\"", "\"ct_forged\""])}}`,
    () => `{"message": "hi", "continuationToken": ${JSON.stringify(t.continuationToken)}, "admission": ${r.pick(["\"now\"", "1", "null", "\"preempt\"", "\"coalesce\""])}}`,
    () => `{"message": "hi", "workspaceFiles": ${r.pick(["[]", "\"x\"", "{\"../../etc/passwd\": \"x\"}", "{\"/abs\": \"x\"}", "{\"a\": 1}", "{\"\": \"x\"}", "{\"a/../../b\": \"x\"}"])}}`,
    () => `{"message": "hi", "mode": ${r.pick(["\"task\"", "\"other\"", "1", "null"])}}`,
    () => `{"message": "hi", "title": ${JSON.stringify("t".repeat(r.pick([10, 201, 10_000])))}}`,
    () => `{"input": ${r.pick(["null", "1", "\"x\"", "[]", "{}", "{\"orderId\": 1}", deep(2000, "{\"a\":", "}").replace(/}$/, "1}")])}}`,
    () => `{"approved": ${r.pick(["\"yes\"", "1", "null", "true"])}}`,
    () => `{"ids": ${r.pick(["\"x\"", "[1]", "[\"\"]", "null"])}, "maxConcurrency": ${r.pick(["0", "1.5", "-1", "1e9", "\"4\""])}}`,
    () => `{"customerEmail": ${r.pick(["\"not-an-email\"", "1", "null", "\"a@b.co\""])}, "question": ${r.pick(["\"\"", "1", "\"why?\""])}}`,
    () => `{"jsonrpc":"2.0","id":1,"method":${r.pick(["\"tools/list\"", "\"nope\"", "1", "null"])},"params":${r.pick(["{}", "[]", "1"])}}`,
    () => deep(r.pick([100, 1000, 10_000, 100_000]), "[", "]"),
    () => deep(r.pick([100, 1000, 10_000, 50_000]), "{\"a\":", "}").replace(/}$/, "1}"),
    () => `{"message": ${JSON.stringify("m".repeat(r.pick([1000, 900_000, 1_100_000])))}}`,
    () => `{"message": "\\ud800 lone surrogate"}`,
    () => "\uFEFF{\"message\": \"with a BOM\"}",
    () => `{"message": "hi", "__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}`,
    () => `{"message": "hi"}${"x".repeat(r.int(20))}`,
    () => "{\"message\": \"hi\", \"message\": 5}",
    () => "{\"message\":\"\u0000\"}",
  ];
  return Buffer.from(r.pick(variants)(), "utf8");
}

function mutatePath(path: string, r: Random): string {
  const segments = path.split("/");
  const at = 1 + r.int(Math.max(1, segments.length - 1));
  switch (r.int(5)) {
    case 0:
      segments[at] = r.pick(BAD_SEGMENTS);
      return segments.join("/");
    case 1:
      segments.splice(at, 0, r.pick(BAD_SEGMENTS));
      return segments.join("/");
    case 2:
      return `${path}/${r.pick(BAD_SEGMENTS)}`;
    case 3:
      return path.replace(/\//g, () => r.pick(["/", "//", "/./", "/%2F"]));
    default:
      return `${path}${r.pick(["/", "//", "?", "#frag", "?%", "?a=%E0%A4%A", "?" + "q=x&".repeat(2000)])}`;
  }
}

function baseHeaders(): Array<[string, string]> {
  return [["Host", "127.0.0.1"], ["Connection", "close"]];
}

/** `count` cases for `targets`, from `seed`. */
export function generateCases(targets: FuzzTargets, count: number, seed = 1): FuzzCase[] {
  const r = generator(seed);
  const all = routes(targets);
  const cases: FuzzCase[] = [];
  const families: Array<() => FuzzCase> = [
    // Every method on every route.
    () => ({ family: "method", method: r.pick(METHODS), target: r.pick(all).path, headers: baseHeaders() }),
    // Malformed paths and escapes.
    () => ({ family: "path", method: r.pick(["GET", "POST", "DELETE"]), target: mutatePath(r.pick(all).path, r), headers: baseHeaders() }),
    // Query values of the wrong type.
    () => {
      const route = r.pick(all.filter((candidate) => candidate.query));
      const query = route.query!.map((name) => `${name}=${r.pick(QUERY_VALUES)}`).join("&");
      return { family: "query", method: "GET", target: `${route.path}?${query}`, headers: baseHeaders() };
    },
    // Bodies: wrong JSON, deep nesting, huge, wrong types, wrong content types.
    () => ({
      family: "body",
      method: "POST",
      target: r.pick(all).path,
      headers: [...baseHeaders(), ["Content-Type", r.pick(["application/json", "application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=utf-16"])]],
      body: jsonBodies(targets, r),
    }),
    // Chunked bodies, some past the size limit.
    () => {
      const body = jsonBodies(targets, r);
      const size = Math.max(1, Math.ceil(body.length / (1 + r.int(8))));
      const pieces: Buffer[] = [];
      for (let offset = 0; offset < body.length; offset += size) pieces.push(body.subarray(offset, offset + size));
      if (r.int(4) === 0) for (let i = 0; i < 3; i++) pieces.push(Buffer.alloc(512 * 1024, 0x20));
      return { family: "chunked", method: "POST", target: r.pick(all).path, headers: [...baseHeaders(), ["Content-Type", "application/json"]], body: pieces, chunked: true };
    },
    // Odd headers: forged proxies, bad auth, content-length lies, huge values.
    () => {
      const headers = baseHeaders();
      const choice = r.int(9);
      let body: Buffer | undefined = Buffer.from("{\"message\":\"hi\"}");
      if (choice === 0) headers.push(["X-Forwarded-For", "10.0.0.1"]);
      if (choice === 1) headers.push(["Authorization", r.pick(["Bearer", "Bearer ", "Bearer \u00a0", "Basic Zm9vOmJhcg==", "bearer x", "Bearer " + "a".repeat(10_000)])]);
      if (choice === 2) headers.push(["Content-Length", r.pick(["-1", "abc", "1e3", "99999999999999999999", "0"])]);
      if (choice === 3) headers.push(["Content-Length", "5"], ["Content-Length", "6"]);
      if (choice === 4) headers.push(["X-Big", "v".repeat(r.pick([1000, 20_000, 90_000]))]);
      if (choice === 5) headers.push(["Content-Type", "application/json"], ["Content-Encoding", r.pick(["gzip", "br", "deflate", "x-unknown"])]);
      if (choice === 6) headers.push(["Transfer-Encoding", r.pick(["chunked, gzip", "identity", "xchunked"])]);
      if (choice === 7) headers.push(["Expect", "100-continue"], ["Content-Type", "application/json"]);
      if (choice === 8) {
        headers[0] = ["Host", r.pick(["", "evil.example", "127.0.0.1:99999", "[::1", "a".repeat(300)])];
        body = undefined;
      }
      return { family: "headers", method: r.pick(["GET", "POST"]), target: r.pick(all).path, headers, body };
    },
    // Bodies that stop short, and clients that dribble.
    () => {
      const slow = r.int(2) === 0;
      const body = jsonBodies(targets, r).subarray(0, 4096);
      const headers: Array<[string, string]> = [...baseHeaders(), ["Content-Type", "application/json"]];
      if (!slow) headers.push(["Content-Length", String(body.length + 10 + r.int(1000))]);
      const pieces = slow ? [body.subarray(0, body.length >> 1), body.subarray(body.length >> 1)] : [body];
      return {
        family: slow ? "slow" : "short",
        method: "POST",
        target: r.pick(all).path,
        headers,
        body: pieces,
        pauseMs: slow ? 300 + r.int(700) : 0,
        headPieces: slow ? 2 + r.int(3) : 1,
        endEarly: !slow,
      };
    },
  ];
  // Slow cases take seconds each: keep them a small share.
  const weights = [5, 5, 4, 6, 3, 3, 1];
  const pool = families.flatMap((family, i) => Array.from({ length: weights[i] }, () => family));
  for (let i = 0; i < count; i++) cases.push(r.pick(pool)());
  return cases;
}
