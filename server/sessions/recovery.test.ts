/**
 * The sweep goes on past a session it cannot end (a store error there) and,
 * on a shared store, a failed first sweep does not stop the process: the
 * next sweep ends the turns. Real SQLite stores; the leases are the local
 * ones with the failure put in.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { startTestRuntime } from "../../test/support/runtime.ts";
import { testAgent } from "../../test/support/tools.ts";
import { createLogger } from "../host/logger.ts";
import { createScriptedModel } from "../models/index.ts";
import { type AsyncStore, asyncStore } from "../store/async-store.ts";
import { openStore, type Store } from "../store/index.ts";
import { SessionRuntime } from "./session-runtime.ts";
import { localTurnLeases, type TurnLeases } from "./turn-lease.ts";

const me = { type: "user" as const, id: "local" };
const opened: Array<{ runtime: SessionRuntime; store: Store }> = [];

afterEach(async () => {
  for (const { runtime, store } of opened.splice(0)) {
    await runtime.close();
    store.close();
  }
});

/** A state root whose previous process left one running turn in each of two sessions (the first-created first). */
async function leftRunning(): Promise<{ root: string; sessions: string[]; turns: string[] }> {
  const root = mkdtempSync(path.join(tmpdir(), "bdk-recovery-"));
  const previous = startTestRuntime({ stateRoot: root, agent: testAgent([]) });
  const sessions: string[] = [];
  const turns: string[] = [];
  for (const n of [1, 2]) {
    const handle = await previous.runtime.startSession({ message: "hello", principal: me });
    await handle.done;
    const id = `turn_crashed_${n}`;
    previous.store.turns.create({ id, sessionId: handle.sessionId, status: "running", message: "lost", botVersion: "v", createdAt: new Date(Date.now() + n).toISOString() });
    sessions.push(handle.sessionId);
    turns.push(id);
  }
  await previous.close();
  return { root, sessions, turns };
}

function restart(root: string, leases: TurnLeases, wrap: (store: AsyncStore) => AsyncStore = (store) => store) {
  const store = openStore(root);
  const lines: string[] = [];
  const runtime = new SessionRuntime({
    agent: testAgent([]),
    store: wrap(asyncStore(store)),
    stateRoot: root,
    logger: createLogger(undefined, (line) => lines.push(line)),
    resolveModels: (_config, agentName) => [{ id: "scripted", model: createScriptedModel({ agentName }) }],
    isModelUnavailable: () => false,
    leases,
  });
  opened.push({ runtime, store });
  return { runtime, store, lines };
}

it("a session whose recovery fails is logged and the sessions after it are still swept", async () => {
  const { root, sessions, turns } = await leftRunning();
  const leases: TurnLeases = {
    ...localTurnLeases,
    takeOver: (sessionId, unfinished) =>
      sessionId === sessions[0] ? Promise.reject(new Error("connection reset")) : localTurnLeases.takeOver(sessionId, unfinished),
  };
  const { runtime, store, lines } = restart(root, leases);
  expect(await runtime.recover()).toBe(1);
  expect(store.turns.get(turns[0])?.status).toBe("running");
  expect(store.turns.get(turns[1])?.status).toBe("interrupted");
  expect(lines.some((line) => line.includes(`Recovery of session ${sessions[0]} failed: connection reset`))).toBe(true);
});

it("on a shared store a failed first sweep is logged, not thrown, and the next sweep ends the turns", async () => {
  const { root, turns } = await leftRunning();
  let failures = 1;
  const flaky = (store: AsyncStore): AsyncStore => ({
    ...store,
    turns: {
      ...store.turns,
      listByStatus: (...args) => (failures-- > 0 ? Promise.reject(new Error("the database is starting up")) : store.turns.listByStatus(...args)),
    },
  });
  const { runtime, store, lines } = restart(root, { ...localTurnLeases, sweepEveryMs: 20 }, flaky);
  expect(await runtime.recover()).toBe(0);
  expect(lines.some((line) => line.includes("The sweep of lapsed turns failed: the database is starting up"))).toBe(true);
  await expect.poll(() => turns.map((id) => store.turns.get(id)?.status), { timeout: 10_000 }).toEqual(["interrupted", "interrupted"]);
});

it("without a sweep interval (one process owns the store) a failed recovery still stops the start", async () => {
  const { root } = await leftRunning();
  const broken = (store: AsyncStore): AsyncStore => ({ ...store, turns: { ...store.turns, listByStatus: () => Promise.reject(new Error("disk I/O error")) } });
  const { runtime } = restart(root, localTurnLeases, broken);
  await expect(runtime.recover()).rejects.toThrow("disk I/O error");
});

it("adopts a turn parked on a pending approval and still ends the message that was waiting behind it", async () => {
  const { root, sessions, turns } = await leftRunning();
  const previous = openStore(root);
  const approval = previous.approvals.create({ sessionId: sessions[0], turnId: turns[0], toolCallId: "call_parked", name: "submit_review", input: {} });
  const waiting = previous.turns.create({ sessionId: sessions[0], status: "queued", message: "and then this", botVersion: "v", createdAt: new Date(Date.now() + 10).toISOString() });
  previous.close();
  const { runtime, store } = restart(root, localTurnLeases);
  expect(await runtime.recover()).toBe(2);
  expect(store.turns.get(turns[0])?.status).toBe("running");
  expect(store.turns.get(waiting.id)?.status).toBe("interrupted");
  expect(store.turns.get(turns[1])?.status).toBe("interrupted");
  expect((await runtime.inbox.listApprovals(me)).map((row) => row.id)).toEqual([approval.id]);
});
