/**
 * The routes the HTTP front answers itself, without Next.js: `/health`,
 * `GET /v1/info` and `GET /v1/session/:id/stream`. They answer as soon as the
 * agents are loaded, while Next.js is still booting (web/start-web-server.ts),
 * so a supervisor or a client polling for readiness gets its 200 without
 * waiting for the web app. The stream is the hot path (every turn has a
 * follower, a replay is thousands of lines): answered here it costs neither
 * Next.js's per-request work nor its piping of a web stream into the socket.
 * Their bodies come from the same engine routes (`HttpHost.handleAgentRoute`)
 * the Next.js route files call.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpHost } from "../server/http/http-host.ts";
import { PUBLIC_URL_HEADER } from "../server/http/public-url.ts";
import { BdkError } from "../server/protocol/errors.ts";
import { sendError } from "./front-errors.ts";

/** `/<slug>/v1/info` after request-mapping.ts (single mode has added the slug, a trailing slash is gone). */
const INFO_PATH = /^\/([^/]+)\/v1\/info$/;
/** `/<slug>/v1/session/<id>/stream`, mapped the same way. */
const STREAM_PATH = /^\/([^/]+)\/v1\/session\/([^/]+)\/stream$/;

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
  if (!takesGet(req, res, "/v1/info")) return true;
  // The engine route answers its own errors as envelopes; a failure here is the socket's.
  respond(req, res, httpHost.handleAgentRoute("info", engineRequest(req), { slug })).catch(() => res.destroy());
  return true;
}

/** `GET /v1/session/:id/stream`: the NDJSON replay and live follow, written to the socket as the engine produces it. */
export function answerStream(req: IncomingMessage, res: ServerResponse, httpHost: HttpHost): boolean {
  const match = STREAM_PATH.exec(pathOf(req));
  if (!match) return false;
  if (!takesGet(req, res, "/v1/session/:id/stream")) return true;
  // The request's signal ends the follow when the client goes away (as Next.js's does for a route file).
  const gone = new AbortController();
  res.once("close", () => gone.abort());
  const params = { slug: match[1], id: decodedSegment(match[2]) };
  streamTo(req, res, httpHost.handleAgentRoute("stream", engineRequest(req, gone.signal), params)).catch(() => res.destroy());
  return true;
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

function takesGet(req: IncomingMessage, res: ServerResponse, route: string): boolean {
  if (req.method === "GET" || req.method === "HEAD") return true;
  sendError(res, new BdkError("method_not_allowed", `${req.method} ${route}: this route takes GET.`));
  return false;
}

/** A path segment as Next.js hands it to a route (percent-decoded); one that does not decode stays as sent (and matches no session). */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The engine's view of a bodiless request: the URL the client used and its headers (the front's own included). */
function engineRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const recorded = headers.get(PUBLIC_URL_HEADER);
  const url = recorded && URL.canParse(recorded) ? new URL(recorded) : new URL(req.url ?? "/", "http://127.0.0.1");
  // As Next.js hands it to route handlers: the mapped path on the client's origin.
  return new Request(new URL(req.url ?? "/", url.origin), { method: req.method, headers, signal });
}

async function respond(req: IncomingMessage, res: ServerResponse, answer: Promise<Response>): Promise<void> {
  const response = await answer;
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = Object.fromEntries(response.headers);
  headers["content-length"] = String(body.length);
  res.writeHead(response.status, headers).end(req.method === "HEAD" ? undefined : body);
}

/**
 * Writes each chunk of the answer's body as it comes, waiting for the socket
 * to drain when it is full; a client that goes away cancels the body (which
 * stops the engine's follow).
 */
async function streamTo(req: IncomingMessage, res: ServerResponse, answer: Promise<Response>): Promise<void> {
  const response = await answer;
  res.writeHead(response.status, Object.fromEntries(response.headers));
  const body = response.body;
  if (!body || req.method === "HEAD") {
    await body?.cancel();
    res.end();
    return;
  }
  const reader = body.getReader();
  res.once("close", () => void reader.cancel().catch(() => undefined));
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
