/**
 * The routes the HTTP front answers itself, without Next.js: `/health` and
 * `GET /v1/info`. They answer as soon as the agents are loaded, while Next.js
 * is still booting (web/start-web-server.ts), so a supervisor or a client
 * polling for readiness gets its 200 without waiting for the web app. The
 * info body comes from the same engine route (`HttpHost.handleAgentRoute`)
 * the Next.js route files call.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpHost } from "../server/http/http-host.ts";
import { PUBLIC_URL_HEADER } from "../server/http/public-url.ts";
import { BdkError } from "../server/protocol/errors.ts";
import { sendError } from "./front-errors.ts";

/** `/<slug>/v1/info` after request-mapping.ts (single mode has added the slug, a trailing slash is gone). */
const INFO_PATH = /^\/([^/]+)\/v1\/info$/;

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
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  const slug = INFO_PATH.exec(query === -1 ? url : url.slice(0, query))?.[1];
  if (slug === undefined) return false;
  if (req.method !== "GET" && req.method !== "HEAD") {
    sendError(res, new BdkError("method_not_allowed", `${req.method} /v1/info: this route takes GET.`));
    return true;
  }
  // The engine route answers its own errors as envelopes; a failure here is the socket's.
  respond(req, res, httpHost.handleAgentRoute("info", engineRequest(req), { slug })).catch(() => res.destroy());
  return true;
}

/** The engine's view of a bodiless request: the URL the client used and its headers (the front's own included). */
function engineRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const recorded = headers.get(PUBLIC_URL_HEADER);
  const url = recorded && URL.canParse(recorded) ? new URL(recorded) : new URL(req.url ?? "/", "http://127.0.0.1");
  // As Next.js hands it to route handlers: the mapped path on the client's origin.
  return new Request(new URL(req.url ?? "/", url.origin), { method: req.method, headers });
}

async function respond(req: IncomingMessage, res: ServerResponse, answer: Promise<Response>): Promise<void> {
  const response = await answer;
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = Object.fromEntries(response.headers);
  headers["content-length"] = String(body.length);
  res.writeHead(response.status, headers).end(req.method === "HEAD" ? undefined : body);
}
