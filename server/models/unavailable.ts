/**
 * Errors after which the next `modelFallbacks` candidate should be tried:
 * the model cannot be reached or refuses the caller, as opposed to a bad
 * request that any model would refuse.
 */
import { APICallError, LoadAPIKeyError, NoSuchModelError } from "@ai-sdk/provider";
import { BdkError } from "../protocol/errors.ts";

/** 401/403 (key refused), 404 (no such model), 408, 429 (rate or quota), 5xx. */
const UNAVAILABLE_STATUS = new Set([401, 403, 404, 408, 429]);
const NETWORK_ERROR_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_SOCKET"]);

export function isModelUnavailableError(error: unknown, depth = 0): boolean {
  if (depth > 5 || error == null) return false;
  if (BdkError.isInstance(error)) return error.code === "model_unavailable";
  // The AI SDK's RetryError (from its own retries), matched by name: importing `ai` for a class check would load all of it.
  if ((error as { name?: unknown }).name === "AI_RetryError") {
    return isModelUnavailableError((error as { lastError?: unknown }).lastError, depth + 1);
  }
  if (LoadAPIKeyError.isInstance(error) || NoSuchModelError.isInstance(error)) return true;
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status !== undefined) return UNAVAILABLE_STATUS.has(status) || status >= 500;
    // No status: the request never got an answer (connection refused, DNS, reset).
    return true;
  }
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && NETWORK_ERROR_CODES.has(code)) return true;
  return isModelUnavailableError((error as { cause?: unknown }).cause, depth + 1);
}
