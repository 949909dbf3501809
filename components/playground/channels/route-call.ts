import { fetchWithAuth } from "../../api/http.ts";

export interface RouteCallResult {
  status: number;
  ok: boolean;
  durationMs: number;
  /** Parsed JSON when the body was JSON, otherwise the text. */
  body: unknown;
  /** A session the route reports having created (`sessionId` anywhere at the top level). */
  sessionId?: string;
}

/** Calls a custom channel route and reads whatever it answers. */
export async function callRoute(url: string, method: string, body: unknown): Promise<RouteCallResult> {
  const started = performance.now();
  const hasBody = body !== undefined && method !== "GET" && method !== "HEAD";
  const res = await fetchWithAuth(url, {
    method,
    headers: hasBody ? { "Content-Type": "application/json" } : undefined,
    body: hasBody ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: keep the text.
  }
  const sessionId =
    parsed && typeof parsed === "object" && typeof (parsed as { sessionId?: unknown }).sessionId === "string"
      ? (parsed as { sessionId: string }).sessionId
      : undefined;
  return { status: res.status, ok: res.ok, durationMs: performance.now() - started, body: parsed, sessionId };
}

/** The same request as a shell command (token included only when one is set, as a variable). */
export function curlFor(url: string, method: string, body: unknown, hasToken: boolean): string {
  const absolute = new URL(url, window.location.origin).toString();
  const parts = [`curl -X ${method} '${absolute}'`];
  if (hasToken) parts.push(`-H "Authorization: Bearer $BDK_TOKEN"`);
  if (body !== undefined && method !== "GET" && method !== "HEAD") {
    parts.push(`-H 'Content-Type: application/json'`);
    parts.push(`-d '${JSON.stringify(body).replace(/'/g, `'\\''`)}'`);
  }
  return parts.join(" \\\n  ");
}
