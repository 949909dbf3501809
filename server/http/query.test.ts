import { describe, expect, it } from "vitest";
import { BdkError } from "../protocol/errors.ts";
import { indexParam, limitParam } from "./query.ts";

const url = (query: string) => new URL(`http://localhost/v1/x?${query}`);

function refusal(run: () => unknown): BdkError {
  try {
    run();
  } catch (error) {
    if (error instanceof BdkError) return error;
    throw error;
  }
  throw new Error("not refused");
}

describe("query parameters", () => {
  it("reads an event index in plain decimal, negative counting back, absent or empty as 0", () => {
    expect(indexParam(url("startIndex=5"), "startIndex")).toBe(5);
    expect(indexParam(url("startIndex=-2"), "startIndex")).toBe(-2);
    expect(indexParam(url(""), "startIndex")).toBe(0);
    expect(indexParam(url("startIndex="), "startIndex")).toBe(0);
  });

  it.each(["1e3", "01x", "0x10", "1.0", "+1", " 1", "abc", "99999999999999999999", "-99999999999999999999", "Infinity"])(
    "refuses startIndex=%j with a 400 naming the parameter",
    (raw) => {
      const error = refusal(() => indexParam(url(`startIndex=${encodeURIComponent(raw)}`), "startIndex"));
      expect(error.code).toBe("invalid_request");
      expect(error.message).toContain("startIndex");
      expect(error.message).toContain(JSON.stringify(raw));
    },
  );

  it.each(["1e2", "0", "-1", "1.5", "201", "99999999999999999999"])("refuses limit=%j", (raw) => {
    expect(refusal(() => limitParam(url(`limit=${raw}`), { fallback: 50, max: 200 })).message).toContain("limit must be an integer from 1 to 200");
  });
});
