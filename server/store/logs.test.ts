import { afterEach, describe, expect, it } from "vitest";
import { manualClock, tempRoots } from "./testing/temp-root.ts";

const roots = tempRoots();
afterEach(() => roots.cleanup());

describe("store.logs", () => {
  it("filters by time and minimum level, returning the latest lines oldest first", () => {
    const time = manualClock("2025-01-01T00:00:00.000Z");
    const store = roots.open(roots.root(), time.clock);
    const levels = ["info", "debug", "warn", "error", "info", "warn"] as const;
    levels.forEach((level, i) => {
      store.logs.append(level, `line ${i}`, i === 2 ? { sessionId: "ses_1" } : undefined);
      time.advance(1000);
    });
    expect(store.logs.list().map((l) => l.msg)).toEqual(levels.map((_, i) => `line ${i}`));
    expect(store.logs.list({ since: "2025-01-01T00:00:03.000Z" }).map((l) => l.msg)).toEqual(["line 3", "line 4", "line 5"]);
    expect(store.logs.list({ level: "warn" }).map((l) => l.msg)).toEqual(["line 2", "line 3", "line 5"]);
    expect(store.logs.list({ level: "warn", since: "2025-01-01T00:00:02.500Z" }).map((l) => l.msg)).toEqual([
      "line 3",
      "line 5",
    ]);
    expect(store.logs.list({ limit: 2 }).map((l) => l.msg)).toEqual(["line 4", "line 5"]);
    expect(store.logs.list({ level: "warn" })[0]).toMatchObject({ level: "warn", data: { sessionId: "ses_1" } });
  });
});
