import { BdkError } from "../protocol/errors.ts";

/** `?limit=`: absent means `fallback`; anything but an integer from 1 to `max` is a 400 naming the value. */
export function limitParam(url: URL, options: { fallback: number; max: number }): number {
  const raw = url.searchParams.get("limit");
  if (raw === null) return options.fallback;
  const limit = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > options.max) {
    throw new BdkError("invalid_request", `limit must be an integer from 1 to ${options.max}, got ${JSON.stringify(raw)}.`);
  }
  return limit;
}
