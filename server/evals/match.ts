import { inspect, isDeepStrictEqual } from "node:util";

/**
 * Deep partial match for `t.calledTool(name, { input })`: every key of
 * `expected` must match in `actual` (extra keys are fine), a RegExp matches
 * a string, arrays match element by element and must have the same length.
 */
export function matchesPartially(actual: unknown, expected: unknown): boolean {
  if (expected instanceof RegExp) {
    return typeof actual === "string" && new RegExp(expected.source, expected.flags.replace("g", "")).test(actual);
  }
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => matchesPartially(actual[index], item))
    );
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return false;
    return Object.entries(expected).every(([key, value]) => matchesPartially(actual[key], value));
  }
  return isDeepStrictEqual(actual, expected);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** JSON when it says everything (tool inputs are JSON), else util.inspect (RegExps, functions). */
function display(value: unknown): string {
  let lossy = false;
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (item instanceof RegExp || typeof item === "function" || typeof item === "bigint" || item === undefined) lossy = true;
    return item;
  });
  return lossy || text === undefined ? inspect(value, { depth: 4, breakLength: Infinity }) : text;
}

/** A value as an assertion message shows it, cut at `limit` characters. */
export function describeValue(value: unknown, limit = 200): string {
  const text = display(value);
  return text.length > limit ? `${text.slice(0, limit - 3)}...` : text;
}
