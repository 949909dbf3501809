/**
 * How the HTTP front hands a request to Next.js: the URL the client used is
 * recorded (for channel handlers, see server/http/public-url.ts), then
 * `/v1/...` paths lose a trailing slash (Next.js would answer it with a 308
 * to an internal path) and, in single mode, gain the agent's slug.
 */
import type { IncomingMessage } from "node:http";
import { PUBLIC_URL_HEADER } from "../server/http/public-url.ts";

/** `/v1`, `/v1/...`, and in multi mode `/<slug>/v1/...`. */
const API_PATH = /^(?:\/[^/]+)?\/v1(?:\/|$)/;

/** Whether a request target is an API path (answers there are JSON, errors included). */
export function isApiPath(url: string): boolean {
  const query = url.indexOf("?");
  return API_PATH.test(query === -1 ? url : url.slice(0, query));
}

export function mapRequest(req: IncomingMessage, singleSlug: string | undefined): void {
  const url = req.url ?? "/";
  req.headers[PUBLIC_URL_HEADER] = publicUrl(req, url);
  const query = url.indexOf("?");
  let pathname = query === -1 ? url : url.slice(0, query);
  const search = query === -1 ? "" : url.slice(query);
  if (!API_PATH.test(pathname)) return;
  pathname = pathname.replace(/\/+$/, "") || "/";
  if (singleSlug && (pathname === "/v1" || pathname.startsWith("/v1/")) && !pathname.startsWith("/v1/agents")) {
    pathname = `/${singleSlug}${pathname}`;
  }
  req.url = pathname + search;
}

/**
 * Scheme (`X-Forwarded-Proto` when a TLS proxy says `https`), `Host` (or the
 * address the socket was accepted on), and the path and query as sent.
 */
function publicUrl(req: IncomingMessage, url: string): string {
  if (!url.startsWith("/")) return url;
  const forwarded = String(req.headers["x-forwarded-proto"] ?? "").split(",")[0].trim().toLowerCase();
  const scheme = forwarded === "https" || forwarded === "http" ? forwarded : "http";
  const host = validHost(req.headers.host) ?? socketHost(req);
  return `${scheme}://${host}${url}`;
}

/** A host name or IP literal with an optional port: anything else (a path, credentials) is not a Host. */
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

function validHost(host: string | undefined): string | undefined {
  return host && HOST.test(host) ? host : undefined;
}

function socketHost(req: IncomingMessage): string {
  const address = req.socket.localAddress ?? "127.0.0.1";
  return `${address.includes(":") ? `[${address}]` : address}:${req.socket.localPort}`;
}
