/**
 * What the HTTP front answers itself, before or instead of Next.js, so every
 * refused request gets the JSON envelope `{ ok: false, error, message }`:
 * request lines Next.js would turn into a plain-text 500 (a method it does
 * not know, a malformed percent-escape), requests Node's parser refuses
 * (oversized headers, broken framing), and the bodiless or HTML error pages
 * Next.js produces for `/v1` paths (a method a route does not export, an
 * unknown route).
 */
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { BdkError, type ErrorCode, type ErrorEnvelope, httpStatusFor } from "../server/protocol/errors.ts";
import { ROUTE_ANSWER_HEADER } from "./route-adapter.ts";

/** The methods a route may export; anything else never reaches Next.js. */
export const ROUTABLE_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const ROUTABLE = new Set<string>(ROUTABLE_METHODS);

/** The request line's problem, or undefined when Next.js may route it. */
export function requestLineProblem(method: string | undefined, url: string): BdkError | undefined {
  if (!method || !ROUTABLE.has(method)) {
    return new BdkError("method_not_allowed", `Method ${method ?? "(none)"} is not supported; use one of ${ROUTABLE_METHODS.join(", ")}.`);
  }
  const query = url.indexOf("?");
  const pathname = query === -1 ? url : url.slice(0, query);
  try {
    decodeURIComponent(pathname);
  } catch {
    return new BdkError("invalid_request", `The request path has a malformed percent-escape: ${JSON.stringify(firstBadEscape(pathname))}.`);
  }
  return undefined;
}

/** The first `%XX...` sequence of a path that does not decode (an incomplete escape or invalid UTF-8). */
function firstBadEscape(pathname: string): string {
  for (const match of pathname.matchAll(/(?:%[0-9A-Fa-f]{2})*%[^%]{0,2}/g)) {
    try {
      decodeURIComponent(match[0]);
    } catch {
      return match[0];
    }
  }
  return pathname;
}

export function sendError(res: ServerResponse, error: BdkError): void {
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };
  if (error.code === "method_not_allowed") headers.allow = ROUTABLE_METHODS.join(", ");
  res.writeHead(error.status, headers).end(JSON.stringify(envelope(error.code, error.message)));
}

/** Node's answer to a request its parser refuses (`clientError`), as an envelope instead of a bare status line. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const [code, message] = clientErrorAnswer(error.code);
  const status = httpStatusFor(code);
  const body = JSON.stringify(envelope(code, message));
  const allow = code === "method_not_allowed" ? `Allow: ${ROUTABLE_METHODS.join(", ")}\r\n` : "";
  socket.end(
    `HTTP/1.1 ${status} ${statusText(status)}\r\nContent-Type: application/json; charset=utf-8\r\n${allow}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function clientErrorAnswer(code: string | undefined): [ErrorCode, string] {
  if (code === "HPE_HEADER_OVERFLOW") return ["headers_too_large", "The request headers are too large."];
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return ["request_timeout", "The request took too long to arrive."];
  if (code === "HPE_INVALID_METHOD") return ["method_not_allowed", `The method is not supported; use one of ${ROUTABLE_METHODS.join(", ")}.`];
  return ["invalid_request", `The request is not valid HTTP/1.1 (${code ?? "parse error"}).`];
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: "invalid_request",
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  408: "request_timeout",
  413: "payload_too_large",
  431: "headers_too_large",
};

/**
 * For a `/v1` request: an error Next.js answers itself (an empty 405 for a
 * method the route file does not export, its HTML 404 page) leaves as the
 * envelope instead. Route handlers' answers (marked by the route adapter)
 * pass through untouched, whatever their type: channel handlers and the
 * OAuth callback page answer as they choose.
 */
export function envelopeNextErrors(req: IncomingMessage, res: ServerResponse, clientUrl = req.url ?? "/"): void {
  const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
  let replacement: string | undefined;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const at = rest.findIndex((arg) => typeof arg === "object" && arg !== null);
    const headers = at === -1 ? undefined : rest[at];
    const fromRoute = headerOf(headers, ROUTE_ANSWER_HEADER) !== undefined || res.hasHeader(ROUTE_ANSWER_HEADER);
    if (fromRoute) {
      res.removeHeader(ROUTE_ANSWER_HEADER);
      if (at !== -1) rest[at] = withoutHeader(headers, ROUTE_ANSWER_HEADER);
    }
    if (status < 400 || fromRoute) return writeHead(status, ...rest);
    const code = CODE_BY_STATUS[status] ?? (status >= 500 ? "internal" : "invalid_request");
    replacement = JSON.stringify(envelope(code, messageFor(status, req.method, clientUrl)));
    const allow = headerOf(headers, "allow") ?? res.getHeader("allow");
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    return writeHead(status, {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "content-length": String(Buffer.byteLength(replacement)),
      ...(allow ? { allow: String(allow) } : {}),
    });
  }) as typeof res.writeHead;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((...args: unknown[]) => {
    if (!res.headersSent) res.writeHead(res.statusCode);
    if (replacement === undefined) return write(...args);
    const callback = args.find((arg) => typeof arg === "function") as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof res.write;
  res.end = ((...args: unknown[]) => {
    if (!res.headersSent) res.writeHead(res.statusCode);
    if (replacement === undefined) return end(...args);
    const callback = args.find((arg) => typeof arg === "function") as (() => void) | undefined;
    const body = req.method === "HEAD" ? undefined : replacement;
    return body === undefined ? end(callback) : end(body, callback);
  }) as typeof res.end;
}

/** Names the request as the client sent it (`clientUrl`), not as it was mapped for Next.js (`/<slug>/v1/...`). */
function messageFor(status: number, method: string | undefined, clientUrl: string): string {
  const what = `${method} ${clientUrl.split("?")[0]}`;
  if (status === 404) return `No route ${what}. See GET /v1/info for what this agent serves.`;
  if (status === 405) return `${what}: this route does not take ${method}.`;
  return `${what}: ${statusText(status)}.`;
}

/**
 * `writeHead`'s headers without `name`, in the form they came: an object, or
 * Node's flat `[name, value, ...]` or nested `[[name, value], ...]` array (a
 * form left as it was would send the kit's internal marker to the client).
 */
function withoutHeader(headers: unknown, name: string): unknown {
  const other = (key: unknown) => String(key).toLowerCase() !== name;
  if (Array.isArray(headers)) {
    if (headers.length > 0 && Array.isArray(headers[0])) return (headers as unknown[][]).filter((pair) => other(pair[0]));
    const kept: unknown[] = [];
    for (let i = 0; i + 1 < headers.length; i += 2) if (other(headers[i])) kept.push(headers[i], headers[i + 1]);
    return kept;
  }
  if (typeof headers !== "object" || headers === null) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([key]) => other(key)));
}

/** A header from `writeHead`'s arguments: an object, or Node's flat `[name, value, ...]` array. */
function headerOf(headers: unknown, name: string): unknown {
  if (Array.isArray(headers)) {
    const flat = headers.flat() as unknown[];
    for (let i = 0; i + 1 < flat.length; i += 2) if (String(flat[i]).toLowerCase() === name) return flat[i + 1];
    return undefined;
  }
  if (typeof headers !== "object" || headers === null) return undefined;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : (headers as Record<string, unknown>)[key];
}

function envelope(code: ErrorCode, message: string): ErrorEnvelope {
  return { ok: false, error: code, message };
}

function statusText(status: number): string {
  return STATUS_CODES[status] ?? "Error";
}
