/**
 * The small HTTP client the first-party Cursor mounts share. Credentials are
 * read on every call so a key set after load is picked up.
 */
import { z } from "zod";
import type { ToolResultContent } from "./tools.ts";
import type { ModelSetting } from "./types.ts";

export const CURSOR_API_KEY = "CURSOR_API_KEY";

export interface ErrorResult {
  content: ToolResultContent[];
  isError: true;
}

export function errorResult(message: string): ErrorResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

export function missingCredential(variable: string, service: string): ErrorResult {
  return errorResult(`${variable} is not set: ${service} needs it. Set ${variable} in the server's environment and retry.`);
}

/** Thrown by `cursorRequest` so tools can turn it into an error result. */
export class CursorApiError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CursorApiError";
  }
}

export function cursorApiKey(): string | undefined {
  return process.env[CURSOR_API_KEY] || undefined;
}

/** `CURSOR_API_BASE_URL` overrides the public endpoint (proxies, tests). */
export async function cursorRequest(
  path: string,
  init: { method?: string; body?: unknown; signal?: AbortSignal; baseUrl?: string } = {},
): Promise<unknown> {
  const key = cursorApiKey();
  if (!key) throw new CursorApiError(`${CURSOR_API_KEY} is not set`);
  const base = init.baseUrl ?? process.env.CURSOR_API_BASE_URL ?? "https://api.cursor.com";
  const response = await fetch(new URL(path, base), {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init.signal,
  });
  const text = await response.text();
  if (!response.ok) throw new CursorApiError(`${init.method ?? "GET"} ${path} failed with ${response.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : {};
}

/** Runs a Cursor API call as a tool body: a missing key or an API failure becomes an error result. */
export async function asToolResult(service: string, call: () => Promise<unknown>): Promise<unknown> {
  if (!cursorApiKey()) return missingCredential(CURSOR_API_KEY, service);
  try {
    return await call();
  } catch (error) {
    // fetch reports a refused connection as "fetch failed" with the reason in `cause`.
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    return errorResult(`${(error as Error).message}${cause ? ` (${cause})` : ""}`);
  }
}

/** The kit's model setting as a mount's config takes it: `"grok-4.5"` or `{ id, params?: [{ id, value }] }`. */
export const modelSettingSchema: z.ZodType<ModelSetting> = z.union([
  z.string().min(1),
  z.object({ id: z.string().min(1), params: z.array(z.object({ id: z.string(), value: z.string() })).optional() }),
]);

export function modelIdOf(setting: ModelSetting | undefined): string | undefined {
  return typeof setting === "string" ? setting : setting?.id;
}
