/**
 * One owner per session, fenced (issue 16, item 2), against a real
 * PostgreSQL: a stale owner's append is refused and stores nothing; a turn
 * whose lease is taken over stops and appends nothing more; and two real
 * `bdk serve` nodes on one database, the one running a turn killed with -9:
 * the other ends that turn `interrupted` within the lease bound, reports the
 * call it was running in doubt (never running it again), and the session
 * goes on there.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createLogger } from "../server/host/logger.ts";
import { removeTempProjects } from "../server/load/testing/temp-project.ts";
import { createScriptedModel } from "../server/models/index.ts";
import type { AnyBdkEvent } from "../server/protocol/events.ts";
import { SessionEventLog } from "../server/sessions/event-log.ts";
import { SessionRuntime } from "../server/sessions/session-runtime.ts";
import { pgTurnLeases } from "../server/sessions/pg-turn-leases.ts";
import { LeaseLostError } from "../server/store/pg/lease-lost.ts";
import { createSessionOwners } from "../server/store/pg/session-owners.ts";
import { openPgStore, type PgStore } from "../server/store/pg/store.ts";
import { readNdjson, type RunningServer, startServer } from "./support/bdk-server.ts";
import { chargeBot } from "./support/charge-bot.ts";
import { type TestDatabase, testDatabase } from "./support/postgres.ts";
import { recordingModel, userTexts } from "./support/recording-model.ts";
import { testAgent, zodTool } from "./support/tools.ts";
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { TurnLeases } from "../server/sessions/turn-lease.ts";

const LEASE_MS = 3000;
const principal = { type: "user", id: "alice" } as const;

let database: TestDatabase;
const stores: PgStore[] = [];
const servers: RunningServer[] = [];

beforeAll(async () => {
  database = await testDatabase();
}, 300_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop("SIGKILL")));
  await Promise.all(stores.map((store) => store.close()));
  await database?.drop();
  removeTempProjects();
}, 120_000);

async function pgStore(): Promise<PgStore> {
  const store = await openPgStore(database.url);
  stores.push(store);
  return store;
}

const eventCount = async (store: PgStore, sessionId: string) =>
  ((await store.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM events WHERE session_id = $1", [sessionId])).rows[0]).n;

/** What another node does once it sees the lease lapsed (a paused owner's, here made to lapse now): it takes the session. */
async function takeOverFrom(store: PgStore, sessionId: string): Promise<void> {
  await store.pool.query("UPDATE session_owners SET expires_at = clock_timestamp() WHERE session_id = $1", [sessionId]);
  expect(await createSessionOwners(store.pool).acquire(sessionId, "another-node", 60_000)).toBeDefined();
}

describe("the fenced event log of a session", () => {
  it("refuses a stale owner's append with LeaseLostError, stores nothing, and tells the lease it was lost", async () => {
    const [mine, theirs] = [await pgStore(), await pgStore()];
    const logger = createLogger(undefined);
    await mine.sessions.create({ id: "ses_fenced", mode: "chat", channel: "test", principal });
    const lease = (await pgTurnLeases({ store: mine, logger, ttlMs: 60_000 }).acquire("ses_fenced", "turn_none", new AbortController().signal))!;
    const log = new SessionEventLog(mine, logger, () => new Date());
    log.fence("ses_fenced", lease.fence!);
    await log.append("ses_fenced", [{ type: "message.received", data: { message: "while I own it" } }]);
    expect(await eventCount(mine, "ses_fenced")).toBe(1);

    await takeOverFrom(theirs, "ses_fenced");
    await expect(log.append("ses_fenced", [{ type: "message.received", data: { message: "after the takeover" } }])).rejects.toBeInstanceOf(LeaseLostError);
    expect(await eventCount(mine, "ses_fenced")).toBe(1);
    expect(lease.lost.aborted).toBe(true);
    await lease.release();
  }, 60_000);
});

/** A runtime on `store`, as one node of the cluster runs it; closed after the test. */
function runtimeOn(store: PgStore, options: { tools?: ReturnType<typeof zodTool>[]; prompts?: LanguageModelV3Prompt[]; leases?: (logger: ReturnType<typeof createLogger>) => TurnLeases }) {
  const logger = createLogger(undefined);
  return new SessionRuntime({
    agent: testAgent(options.tools ?? []),
    store,
    stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-leases-")),
    logger,
    resolveModels: (_config, agentName) => [{ id: "scripted", model: options.prompts ? recordingModel(options.prompts) : createScriptedModel({ agentName }) }],
    isModelUnavailable: () => false,
    leases: options.leases?.(logger) ?? pgTurnLeases({ store, logger }),
  });
}

describe("a turn whose lease is taken over", () => {
  it("stops (its tool sees the abort) and appends nothing more", async () => {
    const store = await pgStore();
    let started!: () => void;
    const toolStarted = new Promise<void>((resolve) => (started = resolve));
    let toolAborted = false;
    const waitHere = zodTool("wait_here", z.object({}), (_input, ctx) => {
      started();
      return new Promise((resolve) =>
        ctx.abortSignal.addEventListener("abort", () => {
          toolAborted = true;
          resolve("stopped");
        }),
      );
    });
    const runtime = runtimeOn(store, { tools: [waitHere], leases: (logger) => pgTurnLeases({ store, logger, ttlMs: 900 }) });
    try {
      const handle = await runtime.startSession({ message: "wait_here {}", principal });
      await toolStarted;
      await takeOverFrom(store, handle.sessionId);
      const before = await eventCount(store, handle.sessionId);
      await expect(handle.done).resolves.toMatchObject({ status: "interrupted", code: "lease_lost" });
      expect(toolAborted).toBe(true);
      // Whatever the stopped turn tried to record after the takeover (its action.result, its end) was refused.
      expect(await eventCount(store, handle.sessionId)).toBe(before);
      const { rows } = await store.pool.query<{ holder: string }>("SELECT holder FROM session_owners WHERE session_id = $1", [handle.sessionId]);
      expect(rows).toEqual([{ holder: "another-node" }]);
    } finally {
      await runtime.close();
    }
  }, 60_000);
});

describe("a session whose turns run on two nodes in turn", () => {
  it("gives each turn the whole conversation, however much of it the other node ran", async () => {
    const prompts: LanguageModelV3Prompt[] = [];
    const [one, two] = [runtimeOn(await pgStore(), { prompts }), runtimeOn(await pgStore(), { prompts })];
    try {
      const first = await one.startSession({ message: "first, on one", principal });
      await first.done;
      await (await two.followUp(first.sessionId, { message: "second, on two", principal, continuationToken: first.continuationToken })).done;
      const third = await one.followUp(first.sessionId, { message: "third, on one again", principal, continuationToken: first.continuationToken });
      await expect(third.done).resolves.toMatchObject({ status: "completed" });
      expect(userTexts(prompts.at(-1)!)).toEqual(["first, on one", "second, on two", "third, on one again"]);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  }, 60_000);
});

describe("a follow-up accepted on a node while another runs the session's turn", () => {
  it("waits for that turn, then runs: the sweepers leave a turn waiting for the lease alone", async () => {
    let finish!: () => void;
    const released = new Promise<string>((resolve) => (finish = () => resolve("done")));
    let started!: () => void;
    const toolStarted = new Promise<void>((resolve) => (started = resolve));
    const slowTool = zodTool("slow_step", z.object({}), () => (started(), released));
    // A short lease, so the waiting turn is old enough for any sweeper to consider it while the first one runs.
    const short = (store: PgStore) => (logger: ReturnType<typeof createLogger>) => pgTurnLeases({ store, logger, ttlMs: 600 });
    const [storeOne, storeTwo] = [await pgStore(), await pgStore()];
    const one = runtimeOn(storeOne, { tools: [slowTool], leases: short(storeOne) });
    const two = runtimeOn(storeTwo, { tools: [slowTool], leases: short(storeTwo) });
    try {
      await Promise.all([one.recover(), two.recover()]);
      const first = await one.startSession({ message: "slow_step {}", principal });
      await toolStarted;
      const waiting = await two.followUp(first.sessionId, { message: "and then this", principal, continuationToken: first.continuationToken, admission: "coalesce" });
      // Several sweeps of both nodes pass while the follow-up waits.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      finish();
      await expect(first.done).resolves.toMatchObject({ status: "completed" });
      await expect(waiting.done).resolves.toMatchObject({ status: "completed" });
      const { rows } = await storeOne.pool.query<{ id: string; status: string }>("SELECT id, status FROM turns WHERE session_id = $1 ORDER BY created_at", [first.sessionId]);
      expect(rows).toEqual([
        { id: first.turnId, status: "completed" },
        { id: waiting.turnId, status: "completed" },
      ]);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  }, 60_000);
});

describe("two bdk serve nodes, the owner of a running turn killed with -9", () => {
  it("ends the turn interrupted on the other node within the lease bound, its call in doubt, and the session goes on there", async () => {
    const { dir, chargeLog, charges, chargeTaken } = chargeBot("lease-bot");
    const env = { BDK_DATABASE_URL: database.url, BDK_SESSION_LEASE_MS: String(LEASE_MS), CHARGE_LOG: chargeLog };
    const [a, b] = await Promise.all([startServer({ dir, env }), startServer({ dir, env })]);
    servers.push(a, b);
    const post = async (server: RunningServer, route: string, body: unknown) =>
      (await (await fetch(`${server.url}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json()) as Record<string, string>;
    const until = async (server: RunningServer, sessionId: string, type: string, startIndex = 0) =>
      readNdjson<AnyBdkEvent>(await fetch(`${server.url}/v1/session/${sessionId}/stream?startIndex=${startIndex}`), (event) => event.type === type);

    const created = await post(a, "/v1/session", { message: 'charge_card {"amount": 42}' });
    const requested = (await until(a, created.sessionId, "actions.requested")).at(-1)!;
    const [call] = (requested.data as { actions: { toolCallId: string }[] }).actions;
    await chargeTaken();
    await a.stop("SIGKILL");
    const killedAt = Date.now();

    const all = await until(b, created.sessionId, "session.waiting");
    const waited = Date.now() - killedAt;
    console.log(`turn ended interrupted on node B ${waited} ms after the kill (lease ${LEASE_MS} ms, sweep every ${LEASE_MS / 2} ms)`);
    // The bound: the lease runs out, then the next sweep; the margin is for a loaded machine, not for the design.
    expect(waited).toBeLessThan(LEASE_MS + LEASE_MS / 2 + 5000);
    const ofTurn = all.filter((event) => event.turnId === created.turnId).map((event) => event.type);
    expect(ofTurn.slice(ofTurn.indexOf("actions.requested"))).toEqual(["actions.requested", "action.in_doubt", "turn.failed"]);
    expect(all.find((event) => event.type === "action.in_doubt")?.data).toMatchObject({ toolCallId: call.toolCallId, name: "charge_card", input: { amount: 42 } });
    expect(all.find((event) => event.type === "turn.failed")?.data).toMatchObject({ status: "interrupted" });

    const next = await post(b, `/v1/session/${created.sessionId}`, { message: "did it go through?", continuationToken: created.continuationToken });
    expect(next.turnId).toBeDefined();
    const after = await until(b, created.sessionId, "session.waiting", all.length);
    expect(after.filter((event) => event.type === "turn.completed").map((event) => event.turnId)).toEqual([next.turnId]);
    const stored = await readNdjson<AnyBdkEvent>(await fetch(`${b.url}/v1/session/${created.sessionId}/events`));
    expect(stored.map((event) => event.index)).toEqual(stored.map((_, index) => index));
    expect(stored.filter((event) => event.type === "action.in_doubt")).toHaveLength(1);
    expect(charges()).toBe("charged 42\n");
  }, 240_000);
});
