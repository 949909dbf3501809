import { describe, expect, it } from "vitest";
import type { LogLine } from "../../api/types.ts";
import { keepPerLevel, matchesSearch, sessionOfLine } from "./log-lines.ts";

const line = (id: number, level: string, msg = `line ${id}`, extra: Record<string, unknown> = {}): LogLine => ({ id, at: `2026-01-01T00:00:${String(id).padStart(2, "0")}Z`, level, msg, ...extra });

describe("keepPerLevel", () => {
  it("drops the oldest lines of a level over its cap, never another level's", () => {
    const warning = line(1, "warn", "disk almost full");
    const debug = Array.from({ length: 20 }, (_, i) => line(i + 2, "debug", "metric"));
    const kept = keepPerLevel([warning], debug, 5);
    expect(kept[0]).toBe(warning);
    expect(kept.filter((l) => l.level === "debug").map((l) => l.id)).toEqual([17, 18, 19, 20, 21]);
    expect(kept.map((l) => l.id)).toEqual([...kept.map((l) => l.id)].sort((a, b) => Number(a) - Number(b)));
  });
});

describe("sessionOfLine", () => {
  it("finds the session id a line carries, flattened or in data", () => {
    expect(sessionOfLine(line(1, "warn", "x", { sessionId: "ses_A" }))).toBe("ses_A");
    expect(sessionOfLine(line(2, "warn", "x", { data: { session: "ses_B" } }))).toBe("ses_B");
    expect(sessionOfLine(line(3, "warn", "x", { sessionId: 42 }))).toBeUndefined();
    expect(sessionOfLine(line(4, "info"))).toBeUndefined();
  });
});

describe("matchesSearch", () => {
  it("matches the message and the fields, ignoring case; an empty search matches all", () => {
    const failed = line(1, "warn", "Tool inspect_pr returned an error", { sessionId: "ses_XYZ", status: 404 });
    expect(matchesSearch(failed, "INSPECT_PR")).toBe(true);
    expect(matchesSearch(failed, "ses_xyz")).toBe(true);
    expect(matchesSearch(failed, "404")).toBe(true);
    expect(matchesSearch(failed, "  ")).toBe(true);
    expect(matchesSearch(failed, "submit_review")).toBe(false);
    expect(matchesSearch(line(2, "warn"), "2026")).toBe(false);
  });
});
