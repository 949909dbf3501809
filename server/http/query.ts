import { BdkError } from "../protocol/errors.ts";

/**
 * `?<name>=` as an integer written in plain decimal digits: `1e3`, `0x10`,
 * `1.0`, ` 1` and `01x` are not (Number() would take most of them), nor is a
 * value past 2^53, where integers stop being exact.
 */
function integerParam(url: URL, name: string, allowNegative: boolean): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null) return undefined;
  const value = (allowNegative ? /^-?\d+$/ : /^\d+$/).test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(value) ? value : Number.NaN;
}

/** `?limit=`: absent means `fallback`; anything but an integer from 1 to `max` is a 400 naming the value. */
export function limitParam(url: URL, options: { fallback: number; max: number }): number {
  const limit = integerParam(url, "limit", false);
  if (limit === undefined) return options.fallback;
  if (Number.isNaN(limit) || limit < 1 || limit > options.max) {
    throw new BdkError("invalid_request", `limit must be an integer from 1 to ${options.max}, got ${JSON.stringify(url.searchParams.get("limit"))}.`);
  }
  return limit;
}

/** An event index (`?startIndex=`): absent or empty means 0; a negative one counts back from the end (spec: http-api). */
export function indexParam(url: URL, name: string): number {
  if (url.searchParams.get(name) === "") return 0;
  const index = integerParam(url, name, true);
  if (index === undefined) return 0;
  if (Number.isNaN(index)) {
    throw new BdkError("invalid_request", `${name} must be an integer (negative counts back from the end), got ${JSON.stringify(url.searchParams.get(name))}.`);
  }
  return index;
}
