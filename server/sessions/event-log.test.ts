import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../host/logger.ts";
import type { AnyBdkEvent, EventDraft } from "../protocol/events.ts";
import { type AsyncStore, asyncStore } from "../store/async-store.ts";
import { openStore, type Store } from "../store/index.ts";
import { SessionEventLog } from "./event-log.ts";

const me = { type: "user" as const, id: "local" };
const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

/**
 * The SQLite store behind the async contract, with appends that take as long
 * as their first draft's `delayMs` says (as a remote database's can), so a
 * later append would overtake an earlier one if the log let it.
 */
function slowStore(): { store: Store; slow: AsyncStore } {
  const store = openStore(mkdtempSync(path.join(tmpdir(), "bdk-event-log-")));
  opened.push(store);
  const base = asyncStore(store);
  const append = async (sessionId: string, drafts: readonly EventDraft[]) => {
    const delayMs = (drafts[0]?.data as { delayMs?: number } | undefined)?.delayMs ?? 0;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return base.events.append(sessionId, drafts);
  };
  return { store, slow: { ...base, events: { ...base.events, append } } };
}

const note = (text: string, delayMs = 0): EventDraft => ({ type: "session.waiting", data: { text, delayMs } as never });
const texts = (events: readonly AnyBdkEvent[]) => events.map((event) => (event.data as { text: string }).text);

describe("SessionEventLog", () => {
  it("stores and publishes one session's appends in the order they were made, even when the store answers out of order", async () => {
    const { store, slow } = slowStore();
    const log = new SessionEventLog(slow, createLogger(slow), () => new Date());
    const session = store.sessions.create({ mode: "chat", channel: "http", principal: me });
    const published: AnyBdkEvent[] = [];
    log.observe((_sessionId, events) => published.push(...events));

    const [first, second, third] = await Promise.all([log.append(session.id, [note("a", 30)]), log.append(session.id, [note("b")]), log.append(session.id, [note("c", 10)])]);

    expect([first[0].index, second[0].index, third[0].index]).toEqual([0, 1, 2]);
    expect(texts(store.events.list(session.id))).toEqual(["a", "b", "c"]);
    expect(published.map((event) => event.index)).toEqual([0, 1, 2]);
  });

  it("publishes what a log transaction appended only once it commits, and nothing of one that rolls back", async () => {
    const { store, slow } = slowStore();
    const log = new SessionEventLog(slow, createLogger(slow), () => new Date());
    const session = store.sessions.create({ mode: "chat", channel: "http", principal: me });
    const published: string[] = [];
    log.observe((_sessionId, events) => published.push(...texts(events)));

    await expect(
      log.transaction(session.id, async (_tx, append) => {
        await append([note("rolled back")]);
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    let seenInTransaction: string[] | undefined;
    const committed = log.transaction(session.id, async (_tx, append) => {
      await append([note("committed", 10)]);
      seenInTransaction = [...published];
    });
    // Made while the transaction is open: waits for it.
    await log.append(session.id, [note("after")]);
    await committed;

    expect(seenInTransaction).toEqual([]);

    expect(texts(store.events.list(session.id))).toEqual(["committed", "after"]);
    expect(published).toEqual(["committed", "after"]);
  });

  it("keeps the events buffered before a log transaction that fails, stored and published in order", async () => {
    const { store, slow } = slowStore();
    const log = new SessionEventLog(slow, createLogger(slow), () => new Date());
    const session = store.sessions.create({ mode: "chat", channel: "http", principal: me });
    const published: string[] = [];
    log.observe((_sessionId, events) => published.push(...texts(events)));

    log.appendSoon(session.id, note("buffered by the turn"));
    await expect(
      log.transaction(session.id, async () => {
        throw new Error("not found");
      }),
    ).rejects.toThrow("not found");
    await log.append(session.id, [note("next")]);

    expect(texts(store.events.list(session.id))).toEqual(["buffered by the turn", "next"]);
    expect(published).toEqual(["buffered by the turn", "next"]);
  });

  it("refuses a transaction once closed with not_ready, before it touches the store", async () => {
    const { store, slow } = slowStore();
    const log = new SessionEventLog(slow, createLogger(asyncStore(store)), () => new Date());
    const session = store.sessions.create({ mode: "chat", channel: "http", principal: me });
    await log.close();
    store.close();
    let ran = false;
    await expect(
      log.transaction(session.id, async () => {
        ran = true;
      }),
    ).rejects.toMatchObject({ name: "BdkError", code: "not_ready", message: expect.stringMatching(/event log is closed.*session ses_/) });
    expect(ran).toBe(false);
  });
});
