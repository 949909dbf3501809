/**
 * What the Logs tab does with the lines it polled: keeps the newest of each
 * level (so debug metric lines never push out a warning), finds the session a
 * line is about, and matches a text search.
 */
import type { LogLine } from "../../api/types.ts";

/** Appends `fresh` and keeps at most `cap` lines of each level, newest kept, order unchanged. */
export function keepPerLevel(lines: readonly LogLine[], fresh: readonly LogLine[], cap: number): LogLine[] {
  const all = [...lines, ...fresh];
  const left = new Map<string, number>();
  for (const line of all) left.set(line.level, (left.get(line.level) ?? 0) + 1);
  return all.filter((line) => {
    const remaining = left.get(line.level)!;
    left.set(line.level, remaining - 1);
    return remaining <= cap;
  });
}

/** The session a line is about: `sessionId` (or `session`) in its data, as GET /v1/logs flattens it. */
export function sessionOfLine(line: LogLine): string | undefined {
  for (const value of [line.sessionId, line.session, line.data?.sessionId, line.data?.session]) {
    if (typeof value === "string" && value.startsWith("ses_")) return value;
  }
  return undefined;
}

/** Case-insensitive search over the message and every field of the line. */
export function matchesSearch(line: LogLine, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  if (line.msg.toLowerCase().includes(needle)) return true;
  const { at: _at, level: _level, msg: _msg, id: _id, ...fields } = line;
  return JSON.stringify(fields).toLowerCase().includes(needle);
}
