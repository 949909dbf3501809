import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "./store.ts";
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
    // The latest line of each level, oldest first.
    expect(store.logs.list({ limit: 1 }).map((l) => l.msg)).toEqual(["line 1", "line 3", "line 4", "line 5"]);
    expect(store.logs.list({ level: "warn" })[0]).toMatchObject({ level: "warn", data: { sessionId: "ses_1" } });
  });
});

describe("store.logs retention", () => {
  it("keeps a ring per level: a flood of debug metric lines never evicts a warning or an error", () => {
    const root = roots.root();
    const store = openStore(root, { logRetention: { debug: 5, info: 5, warn: 5, error: 5 } });
    try {
      store.logs.append("warn", "disk almost full", { sessionId: "ses_1" });
      store.logs.append("error", "tool crashed", { sessionId: "ses_2" });
      for (let i = 0; i < 500; i++) store.logs.append("debug", "metric", { name: "bdk.turn.duration", value: i });
      const all = store.logs.list({ limit: 1000 });
      expect(all.filter((line) => line.level === "warn").map((line) => line.msg)).toEqual(["disk almost full"]);
      expect(all.filter((line) => line.level === "error").map((line) => line.msg)).toEqual(["tool crashed"]);
      const debug = all.filter((line) => line.level === "debug");
      // Trimmed in batches: never far over the cap, and the newest lines are the ones kept.
      expect(debug.length).toBeLessThanOrEqual(10);
      expect(debug.at(-1)?.data).toMatchObject({ value: 499 });
    } finally {
      store.close();
    }
  });

  it("lists the latest `limit` lines of each level, so one noisy level does not crowd the window", () => {
    const store = roots.open(roots.root());
    store.logs.append("warn", "the only warning");
    for (let i = 0; i < 50; i++) store.logs.append("debug", `metric ${i}`);
    const window = store.logs.list({ limit: 10 });
    expect(window.map((line) => line.msg)).toEqual(["the only warning", ...Array.from({ length: 10 }, (_, i) => `metric ${40 + i}`)]);
  });
});
