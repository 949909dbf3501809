import { BdkError, toErrorEnvelope } from "../protocol/errors.ts";

export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/** The error envelope `{ ok: false, error, message }`; unknown errors become a stack-free 500. */
export function errorResponse(error: unknown, onInternal?: (error: unknown) => void): Response {
  const { status, body } = toErrorEnvelope(error);
  if (!BdkError.isInstance(error)) onInternal?.(error);
  const headers: Record<string, string> =
    status === 401 ? { "www-authenticate": 'Bearer realm="bdk", error="invalid_token"' } : {};
  return json(body, status, headers);
}
