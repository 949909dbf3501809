/** Reminder durations: `"90s"`, `"30m"`, `"2h"`, `"1d"`, `"1w"`, or combined like `"1h30m"`. */

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

const PART = /(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)/gy;

/** Milliseconds, or undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const source = text.trim().toLowerCase();
  if (!source) return undefined;
  PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (let match = PART.exec(source); match; match = PART.exec(source)) {
    total += Number(match[1]) * UNIT_MS[match[2]];
    consumed = PART.lastIndex;
    while (source[consumed] === " ") consumed++;
    PART.lastIndex = consumed;
  }
  return consumed === source.length && total > 0 ? Math.round(total) : undefined;
}
