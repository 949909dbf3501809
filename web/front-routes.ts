/**
 * The routes the HTTP front answers itself, without Next.js: `/health`,
 * `GET /v1/info`, and the two routes every conversation calls,
 * `POST /v1/session` and `GET /v1/session/:id/stream`. They answer as soon
 * as the agents are loaded, while Next.js is still booting
 * (web/start-web-server.ts), so a supervisor or a client polling for
 * readiness gets its 200 without waiting for the web app. The conversation
 * routes are the hot path (a turn is a create and a follower, a replay is
 * thousands of lines): answered here they cost neither Next.js's per-request
 * work nor its piping of a web stream into the socket. Their bodies come
 * from the same engine routes (`HttpHost.handleAgentRoute`) the Next.js
 * route files call.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { HttpHost } from "../server/http/http-host.ts";
import type { AgentRouteName } from "../server/http/routes.ts";
import { PUBLIC_URL_HEADER } from "../server/http/public-url.ts";
import { BdkError } from "../server/protocol/errors.ts";
import { sendError } from "./front-errors.ts";

/** `/<slug>/v1/info` after request-mapping.ts (single mode has added the slug, a trailing slash is gone). */
const INFO_PATH = /^\/([^/]+)\/v1\/info$/;

interface FrontRoute {
  route: AgentRouteName;
  method: "GET" | "POST";
  /** On the mapped path, like info's. */
  path: RegExp;
  /** How an error message names the route. */
  label: string;
  params: (match: RegExpExecArray) => Record<string, string>;
}

/** The conversation routes. */
const CONVERSATION_ROUTES: FrontRoute[] = [
  { route: "createSession", method: "POST", path: /^\/([^/]+)\/v1\/session$/, label: "/v1/session", params: (match) => ({ slug: match[1] }) },
  {
    route: "stream",
    method: "GET",
    path: /^\/([^/]+)\/v1\/session\/([^/]+)\/stream$/,
    label: "/v1/session/:id/stream",
    // Percent-decoded as Next.js hands it to a route (the front has refused a malformed escape already).
    params: (match) => ({ slug: match[1], id: decodeURIComponent(match[2]) }),
  },
];

function isHealth(url: string): boolean {
  return url === "/health" || url.startsWith("/health?");
}

/**
 * Answers `req` when it is a front route and says whether it did. `/health`
 * is checked on the raw URL (before mapping), info on the mapped one.
 */
export function answerHealth(req: IncomingMessage, res: ServerResponse): boolean {
  if (!isHealth(req.url ?? "/")) return false;
  res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  return true;
}

export function answerInfo(req: IncomingMessage, res: ServerResponse, httpHost: HttpHost): boolean {
  const slug = INFO_PATH.exec(pathOf(req))?.[1];
  if (slug === undefined) return false;
  if (!takes("GET", req, res, "/v1/info")) return true;
  // The engine route answers its own errors as envelopes; a failure here is the socket's.
  streamTo(req, res, httpHost.handleAgentRoute("info", engineRequest(req), { slug })).catch(() => res.destroy());
  return true;
}

/** The conversation routes: the answer is written to the socket as the engine produces it (a stream's lines as they come). */
export function answerConversation(req: IncomingMessage, res: ServerResponse, httpHost: HttpHost): boolean {
  const pathname = pathOf(req);
  for (const { route, method, path, label, params } of CONVERSATION_ROUTES) {
    const match = path.exec(pathname);
    if (!match) continue;
    if (!takes(method, req, res, label)) return true;
    streamTo(req, res, httpHost.handleAgentRoute(route, engineRequest(req), params(match))).catch(() => res.destroy());
    return true;
  }
  return false;
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/** A GET route takes HEAD too. */
function takes(method: "GET" | "POST", req: IncomingMessage, res: ServerResponse, route: string): boolean {
  if (req.method === method || (method === "GET" && req.method === "HEAD")) return true;
  sendError(res, new BdkError("method_not_allowed", `${req.method} ${route}: this route takes ${method}.`));
  return false;
}

/** The engine's view of a request: the URL the client used, its headers (the front's own included) and its body, read as the engine reads it. */
export function engineRequest(req: IncomingMessage): Request {
  const recorded = req.headers[PUBLIC_URL_HEADER];
  const url = typeof recorded === "string" && URL.canParse(recorded) ? new URL(recorded) : new URL(req.url ?? "/", "http://127.0.0.1");
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : requestBody(req);
  // `duplex` is required by Node's fetch for a streamed body; TypeScript's RequestInit does not list it yet.
  const init = { method: req.method, headers: fetchHeaders(req.headers), body, duplex: "half" } as RequestInit;
  // As Next.js hands it to route handlers: the mapped path on the client's origin.
  return new Request(new URL(req.url ?? "/", url.origin), init);
}

/**
 * Node's parsed headers as `Request` takes them, without copying them one by
 * one into a `Headers` first (the Request copies them anyway): Node gives
 * every header as one string (repeats joined with ", ") except `set-cookie`,
 * which it keeps as a list, joined here as Headers would combine it.
 */
function fetchHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const cookies = headers["set-cookie"];
  // Apart from set-cookie every value is a string (IncomingHttpHeaders types them loosely).
  return (cookies === undefined ? headers : { ...headers, "set-cookie": cookies.join(", ") }) as Record<string, string>;
}

/**
 * The request's body as a web stream, read only as far as the engine reads
 * it: a body the engine refuses unread (too large) or stops reading is
 * discarded by Node, so the client still gets the answer rather than
 * stalling on a full socket.
 */
function requestBody(req: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    pull: (controller) =>
      new Promise<void>((resolve, reject) => {
        const take = () => {
          req.off("readable", take).off("end", take).off("error", cut);
          const chunk = req.read() as Buffer | null;
          if (chunk !== null) controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          else if (req.readableEnded) controller.close();
          else if (req.destroyed) return cut();
          else {
            req.once("readable", take).once("end", take).once("error", cut);
            return;
          }
          resolve();
        };
        // The client went away mid-body: a request error of its own, not a failure of the route.
        const cut = () => {
          req.off("readable", take).off("end", take).off("error", cut);
          reject(new BdkError("invalid_request", "The request body ended early: the client closed the connection."));
        };
        take();
      }),
    cancel: () => {
      req.resume();
    },
    // No read ahead: a body nobody reads is never touched, and Node discards it once the answer is sent.
  }, { highWaterMark: 0 });
}

/**
 * Writes each chunk of the answer's body as it comes, waiting for the socket
 * to drain when it is full. A client that goes away, before the answer is
 * ready or while it streams, cancels the body: that is what stops a follow.
 * (The engine's request carries no abort signal for it: giving a `Request`
 * one costs more than the rest of its set-up.)
 */
async function streamTo(req: IncomingMessage, res: ServerResponse, answer: Promise<Response>): Promise<void> {
  let gone = false;
  let cancel: (() => void) | undefined;
  res.once("close", () => {
    gone = true;
    cancel?.();
  });
  const response = await answer;
  const body = response.body;
  if (gone || !body || req.method === "HEAD") {
    await body?.cancel();
    if (!gone) res.writeHead(response.status, Object.fromEntries(response.headers)).end();
    return;
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  const reader = body.getReader();
  cancel = () => void reader.cancel().catch(() => undefined);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (!res.write(value)) await drained(res);
  }
  res.end();
}

/** Resolves when the full socket drains, or closes (the cancelled body then ends the loop). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.on("drain", done).on("close", done);
  });
}
