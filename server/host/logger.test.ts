import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type AsyncStore, asyncStore } from "../store/async-store.ts";
import { openStore, type Store } from "../store/index.ts";
import type { LogLevel } from "../store/types.ts";
import { createLogger } from "./logger.ts";

const opened: Store[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const store of opened.splice(0)) store.close();
});

/**
 * A real SQLite store behind the async contract whose log appends take as
 * long as the line's `delayMs` says (as a remote database's can), and fail
 * for a line with `fail`: a later line would overtake an earlier one if the
 * logger let it.
 */
function slowLogs(): { store: AsyncStore; stored(): Promise<string[]> } {
  const sqlite = openStore(mkdtempSync(path.join(tmpdir(), "bdk-logger-")));
  opened.push(sqlite);
  const base = asyncStore(sqlite);
  const append = async (level: LogLevel, msg: string, data?: Record<string, unknown>) => {
    await new Promise((resolve) => setTimeout(resolve, Number(data?.delayMs ?? 0)));
    if (data?.fail) throw new Error("the database went away");
    return base.logs.append(level, msg, data);
  };
  const store = { ...base, logs: { ...base.logs, append } };
  return { store, stored: async () => (await base.logs.list({ limit: 100 })).map((row) => row.msg) };
}

describe("createLogger on an async store", () => {
  it("returns before the line is stored, and stores lines in the order they were logged", async () => {
    const { store, stored } = slowLogs();
    const logger = createLogger(store);
    logger.info("first", { delayMs: 30 });
    logger.warn("second", { delayMs: 0 });
    logger.error("third", { delayMs: 10 });
    expect(await stored()).toEqual([]);
    await logger.flush();
    expect(await stored()).toEqual(["first", "second", "third"]);
  });

  it("keeps a line logged inside a transaction that rolls back", async () => {
    const { store, stored } = slowLogs();
    const logger = createLogger(store);
    await expect(
      store.transaction(async () => {
        logger.error("the delivery failed");
        // The transaction is still open when the line is written.
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await logger.flush();
    expect(await stored()).toEqual(["the delivery failed"]);
  });

  it("sends a line the store refuses to stderr, and goes on storing the next ones", async () => {
    const { store, stored } = slowLogs();
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const logger = createLogger(store);
    logger.warn("lost", { fail: true });
    logger.info("kept");
    await logger.flush();
    expect(await stored()).toEqual(["kept"]);
    expect(stderr).toHaveBeenCalledWith("[warn] lost (not stored: the database went away)\n");
  });
});
