/**
 * The sweep's candidates on a real Postgres (issue 16): only the unfinished
 * turns of sessions without a live lease, in one query, and the sweeper
 * tries to take only those sessions. A session a live node holds is never
 * taken, nor its turn touched, however old the turn.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createLogger } from "../server/host/logger.ts";
import { createScriptedModel } from "../server/models/index.ts";
import { pgTurnLeases } from "../server/sessions/pg-turn-leases.ts";
import { SessionRuntime } from "../server/sessions/session-runtime.ts";
import type { TurnLeases } from "../server/sessions/turn-lease.ts";
import { createSessionOwners } from "../server/store/pg/session-owners.ts";
import { openPgStore, type PgStore } from "../server/store/pg/store.ts";
import type { TurnStatus } from "../server/store/types.ts";
import { type TestDatabase, testDatabase } from "./support/postgres.ts";
import { testAgent } from "./support/tools.ts";

const principal = { type: "user", id: "alice" } as const;
const LONG_AGO = "2026-01-01T00:00:00.000Z";

let database: TestDatabase;
let store: PgStore;
beforeAll(async () => {
  database = await testDatabase();
  store = await openPgStore(database.url);
}, 300_000);
afterAll(async () => {
  await store?.close();
  await database?.drop();
}, 30_000);

/** A session with one turn in `status`, accepted long ago; `owner`: its lease, live for a minute or lapsed a second ago. */
async function sessionWith(id: string, status: TurnStatus, owner?: "live" | "lapsed"): Promise<string> {
  await store.sessions.create({ id, mode: "chat", channel: "test", principal, status: status === "running" ? "running" : "idle" });
  const turn = await store.turns.create({ sessionId: id, status, message: `a turn of ${id}`, createdAt: LONG_AGO });
  if (owner) {
    await createSessionOwners(store.pool).acquire(id, "another-node#1", 60_000);
    if (owner === "lapsed") await store.pool.query("UPDATE session_owners SET expires_at = clock_timestamp() - interval '1 second' WHERE session_id = $1", [id]);
  }
  return turn.id;
}

it("lists the unfinished turns of lapsed and ownerless sessions only, and the sweep takes only those", async () => {
  const live = await sessionWith("ses_live", "running", "live");
  const lapsed = await sessionWith("ses_lapsed", "running", "lapsed");
  const ownerless = await sessionWith("ses_ownerless", "queued");
  await sessionWith("ses_done", "completed");
  await sessionWith("ses_done_lapsed", "failed", "lapsed");

  const candidates = await createSessionOwners(store.pool).lapsedTurns();
  expect(candidates.map((turn) => turn.id).sort()).toEqual([lapsed, ownerless].sort());

  const logger = createLogger(undefined);
  const leases = pgTurnLeases({ store, logger, ttlMs: 300 });
  const attempts: string[] = [];
  const counted: TurnLeases = { ...leases, takeOver: (sessionId, turns) => (attempts.push(sessionId), leases.takeOver(sessionId, turns)) };
  const runtime = new SessionRuntime({
    agent: testAgent([]),
    store,
    stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-sweep-")),
    logger,
    resolveModels: (_config, agentName) => [{ id: "scripted", model: createScriptedModel({ agentName }) }],
    isModelUnavailable: () => false,
    leases: counted,
  });
  try {
    expect(await runtime.recover()).toBe(2);
    expect(attempts.sort()).toEqual(["ses_lapsed", "ses_ownerless"]);
    expect((await store.turns.get(live))?.status).toBe("running");
    expect((await store.turns.get(lapsed))?.status).toBe("interrupted");
    expect((await store.turns.get(ownerless))?.status).toBe("interrupted");
    const { rows } = await store.pool.query<{ holder: string; token: string }>("SELECT holder, token FROM session_owners WHERE session_id = 'ses_live'");
    expect(rows).toEqual([{ holder: "another-node#1", token: "1" }]);
  } finally {
    await runtime.close();
  }
}, 60_000);
