import { getToken, markTokenRequired } from "./auth-store.ts";
import { takeEarlyResponse } from "./early-request.ts";
import { toApiError } from "./errors.ts";

/** fetch with the navbar token; never throws on HTTP status (the Try modal shows any response). */
export async function fetchWithAuth(url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = getToken();
  if (token) headers.set("Authorization", `Bearer ${token}`);
  const early = (init.method ?? "GET") === "GET" ? takeEarlyResponse(url, token, init.signal ?? undefined) : undefined;
  const res = await (early ?? fetch(url, { cache: "no-store", ...init, headers }));
  if (res.status === 401) markTokenRequired();
  return res;
}

/** Like fetchWithAuth, but a non-2xx status becomes an ApiError carrying the server's message. */
export async function apiFetch(url: string, init?: RequestInit): Promise<Response> {
  const res = await fetchWithAuth(url, init);
  if (!res.ok) throw await toApiError(res);
  return res;
}

export async function apiJson<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await apiFetch(url, init);
  const text = await res.text();
  return (text ? JSON.parse(text) : {}) as T;
}

export function jsonBody(method: string, body?: unknown, signal?: AbortSignal): RequestInit {
  return {
    method,
    signal,
    headers: body === undefined ? undefined : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
}
