/**
 * A follow-up waiting on node A for a session whose turn runs on node B,
 * when B dies (its heartbeats stop, as after kill -9; its turn never ends).
 * A's sweeper skips the session (its follow-up is busy there), so the
 * follow-up, taking B's lapsed lease, ends B's turn first: B's unanswered
 * call is `action.in_doubt` and its turn `turn.failed` interrupted, both
 * before the follow-up's `message.received`, and the follow-up runs after.
 * Two runtimes in this process on one real Postgres; a short lease.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { z } from "zod";
import { createLogger } from "../server/host/logger.ts";
import { createScriptedModel } from "../server/models/index.ts";
import { pgTurnLeases } from "../server/sessions/pg-turn-leases.ts";
import { SessionRuntime } from "../server/sessions/session-runtime.ts";
import type { TurnLeases } from "../server/sessions/turn-lease.ts";
import { openPgStore, type PgStore } from "../server/store/pg/store.ts";
import { type TestDatabase, testDatabase } from "./support/postgres.ts";
import { testAgent, zodTool } from "./support/tools.ts";

const principal = { type: "user", id: "alice" } as const;
const LEASE_MS = 600;

let database: TestDatabase;
const stores: PgStore[] = [];
const runtimes: SessionRuntime[] = [];
beforeAll(async () => {
  database = await testDatabase();
}, 300_000);
afterAll(async () => {
  // The dead node's runtime cannot record its turn's end any more (fenced out): its close is allowed to fail.
  for (const runtime of runtimes) await runtime.close().catch(() => undefined);
  for (const store of stores) await store.close();
  await database?.drop();
}, 30_000);

it("a follow-up that takes a dead node's session records that node's unfinished turn as interrupted before its own message", async () => {
  let started!: () => void;
  const toolStarted = new Promise<void>((resolve) => (started = resolve));
  // Node B's call never returns: its node dies during it.
  const hang = zodTool("slow_step", z.object({}), () => (started(), new Promise(() => undefined)));
  const node = async (): Promise<{ runtime: SessionRuntime; leases: TurnLeases; store: PgStore }> => {
    const store = await openPgStore(database.url);
    stores.push(store);
    const logger = createLogger(undefined);
    const leases = pgTurnLeases({ store, logger, ttlMs: LEASE_MS });
    const runtime = new SessionRuntime({
      agent: testAgent([hang]),
      store,
      stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-dead-owner-")),
      logger,
      resolveModels: (_config, agentName) => [{ id: "scripted", model: createScriptedModel({ agentName }) }],
      isModelUnavailable: () => false,
      leases,
    });
    runtimes.push(runtime);
    await runtime.recover();
    return { runtime, leases, store };
  };
  const b = await node();
  const a = await node();

  const first = await b.runtime.startSession({ message: "slow_step {}", principal });
  await toolStarted;
  const followUp = await a.runtime.followUp(first.sessionId, { message: "hello", principal, continuationToken: first.continuationToken, admission: "coalesce" });
  b.leases.close();
  const end = await followUp.done;
  expect(end.status).toBe("completed");

  const events = await a.store.events.list(first.sessionId);
  const firstTurn = (type: string) => events.findIndex((event) => event.turnId === first.turnId && event.type === type);
  const received = events.findIndex((event) => event.turnId === followUp.turnId && event.type === "message.received");
  expect(firstTurn("action.in_doubt")).toBeGreaterThan(firstTurn("actions.requested"));
  expect(firstTurn("turn.failed")).toBeGreaterThan(firstTurn("action.in_doubt"));
  expect(received).toBeGreaterThan(firstTurn("turn.failed"));
  expect(events.find((event) => event.turnId === first.turnId && event.type === "turn.failed")?.data).toMatchObject({ code: "interrupted" });
  expect((await a.store.turns.get(first.turnId))?.status).toBe("interrupted");
  expect((await a.store.turns.get(followUp.turnId))?.status).toBe("completed");
}, 120_000);
