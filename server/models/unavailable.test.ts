import { APICallError, RetryError } from "ai";
import { describe, expect, it } from "vitest";
import { BdkError } from "../protocol/errors.ts";
import { isModelUnavailableError } from "./unavailable.ts";

const apiError = (statusCode?: number) =>
  new APICallError({ message: "failed", url: "http://127.0.0.1/v1", requestBodyValues: {}, statusCode });

describe("isModelUnavailableError", () => {
  it("accepts refusals and outages", () => {
    for (const status of [401, 403, 404, 408, 429, 500, 502, 503]) expect(isModelUnavailableError(apiError(status))).toBe(true);
    expect(isModelUnavailableError(apiError(undefined))).toBe(true);
    expect(isModelUnavailableError(new BdkError("model_unavailable", "no key"))).toBe(true);
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    expect(isModelUnavailableError(new TypeError("fetch failed", { cause: refused }))).toBe(true);
  });

  it("looks through retries at the last error", () => {
    const retried = (last: unknown) => new RetryError({ message: "gave up", reason: "maxRetriesExceeded", errors: [apiError(503), last] });
    expect(isModelUnavailableError(retried(apiError(429)))).toBe(true);
    expect(isModelUnavailableError(retried(apiError(400)))).toBe(false);
  });

  it("rejects request errors and everything else", () => {
    expect(isModelUnavailableError(apiError(400))).toBe(false);
    expect(isModelUnavailableError(apiError(422))).toBe(false);
    expect(isModelUnavailableError(new BdkError("invalid_request", "bad"))).toBe(false);
    expect(isModelUnavailableError(new Error("tool crashed"))).toBe(false);
    expect(isModelUnavailableError(new DOMException("aborted", "AbortError"))).toBe(false);
    expect(isModelUnavailableError(undefined)).toBe(false);
  });
});
