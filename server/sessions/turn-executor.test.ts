import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testAgent } from "../../test/support/tools.ts";
import { createLogger } from "../host/logger.ts";
import { type AsyncStore, asyncStore } from "../store/async-store.ts";
import { openStore, type Store } from "../store/index.ts";
import { SessionEventLog } from "./event-log.ts";
import { LiveSessions } from "./live-sessions.ts";
import { TurnExecutor, type TurnExecutorOptions } from "./turn-executor.ts";

const me = { type: "user" as const, id: "local" };
const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

/** The SQLite store behind the async contract, whose transactions fail at commit (all their work done) while `failing` is set. */
function storeFailingAtCommit(): { store: Store; async: AsyncStore; failing: { now: boolean } } {
  const store = openStore(mkdtempSync(path.join(tmpdir(), "bdk-turn-executor-")));
  opened.push(store);
  const base = asyncStore(store);
  const failing = { now: false };
  const transaction: AsyncStore["transaction"] = (work) =>
    base.transaction(async (tx) => {
      const result = await work(tx);
      if (failing.now) throw new Error("commit failed");
      return result;
    });
  return { store, async: { ...base, transaction }, failing };
}

describe("TurnExecutor.finish", () => {
  it("caches the session row with the turn's usage only once it is stored: a rolled-back end leaves the cache as stored", async () => {
    const { store, async, failing } = storeFailingAtCommit();
    const lives = new LiveSessions();
    const logger = createLogger(async);
    const now = () => new Date();
    const agent = testAgent([]);
    // `finish` records a turn's end (and its memory note): nothing that runs a turn is needed.
    const options = { store: async, log: new SessionEventLog(async, logger, now), lives, logger, services: { now }, agent: () => agent };
    const executor = new TurnExecutor(options as unknown as TurnExecutorOptions);
    const session = store.sessions.create({ mode: "chat", channel: "http", principal: me });
    lives.open(session.id).session = session;
    const usage = { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0 };
    const end = { status: "completed" as const, text: "done", usage, messages: [], model: "scripted" };

    failing.now = true;
    const first = store.turns.create({ sessionId: session.id, message: "hello" });
    await expect(executor.finish(session, first.id, end)).rejects.toThrow("commit failed");
    expect(lives.get(session.id)?.session?.usage).toEqual(session.usage);

    failing.now = false;
    const second = store.turns.create({ sessionId: session.id, message: "hello again" });
    await executor.finish(session, second.id, end);
    expect(store.sessions.get(session.id)?.usage).toEqual(usage);
    expect(lives.get(session.id)?.session).toEqual(store.sessions.get(session.id));
  });
});
