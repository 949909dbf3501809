/** A failed API call: the HTTP status plus the `{ error, message }` body the server sends. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

export function isApiError(err: unknown, status?: number): err is ApiError {
  return err instanceof ApiError && (status === undefined || err.status === status);
}

/** A route the server does not have (yet): the UI shows an empty state instead of an error. */
export function isMissingRoute(err: unknown): boolean {
  return isApiError(err, 404) || isApiError(err, 405) || isApiError(err, 501);
}

export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

/** Builds an ApiError from a non-2xx response, whatever its body looks like. */
export async function toApiError(res: Response): Promise<ApiError> {
  const fallback = `${res.status} ${res.statusText || "request failed"}`.trim();
  let text = "";
  try {
    text = await res.text();
  } catch {
    // The body is gone (aborted); the status alone still says what happened.
  }
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const code = typeof body.error === "string" ? body.error : `http_${res.status}`;
    const message = typeof body.message === "string" && body.message ? body.message : code === `http_${res.status}` ? fallback : `${code} (${res.status})`;
    return new ApiError(res.status, code, message);
  } catch {
    return new ApiError(res.status, `http_${res.status}`, fallback);
  }
}
