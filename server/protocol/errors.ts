/**
 * Errors are values with a stable code and a message meant for a person.
 * They are created here and mapped to an HTTP status in one place.
 */

export type ErrorCode =
  | "invalid_request"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "stale_token"
  | "task_session"
  | "not_ready"
  | "already_resolved"
  | "already_exists"
  | "payload_too_large"
  | "method_not_allowed"
  | "request_timeout"
  | "headers_too_large"
  | "model_unavailable"
  | "internal";

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  stale_token: 409,
  task_session: 409,
  not_ready: 409,
  already_resolved: 409,
  already_exists: 409,
  payload_too_large: 413,
  method_not_allowed: 405,
  request_timeout: 408,
  headers_too_large: 431,
  model_unavailable: 503,
  internal: 500,
};

export class BdkError extends Error {
  readonly code: ErrorCode;
  /** Extra structured detail safe to show a client (never a stack). */
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "BdkError";
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return STATUS_BY_CODE[this.code];
  }

  static isInstance(value: unknown): value is BdkError {
    return value instanceof Error && (value as { name?: string }).name === "BdkError" && "code" in value;
  }
}

export function httpStatusFor(code: ErrorCode): number {
  return STATUS_BY_CODE[code];
}

/** The JSON body of every failed built-in route: `{ ok: false, error, message }`. */
export interface ErrorEnvelope {
  ok: false;
  error: ErrorCode;
  message?: string;
}

export function toErrorEnvelope(error: unknown): { status: number; body: ErrorEnvelope } {
  if (BdkError.isInstance(error)) {
    return { status: error.status, body: { ok: false, error: error.code, message: error.message } };
  }
  return { status: 500, body: { ok: false, error: "internal", message: "Internal server error." } };
}

/** A human message from anything thrown, without a stack trace. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === "string") return error;
  // An Error of another realm (a vm context, a worker) fails instanceof but keeps its message.
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message === "string" && message) return message;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
