/**
 * A prompt reminder fired by real `bdk serve` processes on one Postgres
 * database: its message goes into its session through the real
 * SessionRuntime, inside the firing's transaction (a savepoint, so the
 * firing's store and the runtime's must be one). Both nodes arm it; it
 * reaches the session once, its turn completes, the row is `done`. Then the
 * node holding the `reminders` lease dies (`kill -9`) before the next
 * reminder is due, and the other node fires it once, after the dead lease
 * expires. The lease and the resync are shortened (BDK_REMINDERS_LEASE_MS,
 * BDK_REMINDERS_RESYNC_MS) so the takeover takes seconds, not minutes.
 * Counts are read once the nodes have stopped (a clean stop lets firings in
 * flight end), so a late second delivery cannot slip past them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { removeTempProjects } from "../server/load/testing/temp-project.ts";
import { type RunningServer, startServer } from "./support/bdk-server.ts";
import { type TestDatabase, testDatabase } from "./support/postgres.ts";
import { postAccepted as post, remindersProject } from "./support/reminders-server.ts";

type Event = { type: string; index: number; turnId?: string; at: string; data: Record<string, unknown> };
type ReminderRow = { id: string; status: string; prompt: string; nextFireAt: string | null; lastFiredAt: string | null };

const LEASE_MS = 12_000;
let database: TestDatabase;
let client: pg.Client;
let dir: string;
const servers: RunningServer[] = [];

beforeAll(async () => {
  database = await testDatabase();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  dir = remindersProject("pg-reminders", "You re-check things when reminded.");
}, 300_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop("SIGKILL")));
  await client?.end();
  await database?.drop();
  removeTempProjects();
}, 120_000);

/** A node named `id` (`BDK_NODE_ID`: its lease holder id starts with it). */
async function node(id: string): Promise<RunningServer> {
  const server = await startServer({
    dir,
    env: { BDK_DATABASE_URL: database.url, BDK_NODE_ID: id, BDK_REMINDERS_LEASE_MS: String(LEASE_MS), BDK_REMINDERS_RESYNC_MS: "1000" },
  });
  servers.push(server);
  return server;
}

/** The session's events as stored (read from the database: the nodes may be stopped). */
async function events(sessionId: string): Promise<Event[]> {
  const { rows } = await client.query<Event>(
    `SELECT idx AS index, type, turn_id AS "turnId", at, data FROM events WHERE session_id = $1 ORDER BY idx`,
    [sessionId],
  );
  return rows;
}

const reminderMessages = (all: Event[]) =>
  all.filter((event) => event.type === "message.received" && String(event.data.message).startsWith("[Reminder"));
const completedTurns = (all: Event[]) => all.filter((event) => event.type === "turn.completed");

async function reminders(): Promise<ReminderRow[]> {
  const { rows } = await client.query<ReminderRow>(
    `SELECT id, status, spec->>'prompt' AS prompt, next_fire_at AS "nextFireAt", last_fired_at AS "lastFiredAt" FROM reminders ORDER BY created_at`,
  );
  return rows;
}

async function remindersLease(): Promise<{ holder: string; expiresAt: string } | undefined> {
  const { rows } = await client.query<{ holder: string; expiresAt: string }>(
    `SELECT holder, expires_at AS "expiresAt" FROM leases WHERE name = 'reminders'`,
  );
  return rows[0];
}

/** Polls until `read` resolves to a value (the reminders fire on the servers' own clocks). */
async function eventually<T>(read: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Waits until reminder `nth` (in creation order) is `done` and `turns` turns of the session have completed. */
async function firedAndAnswered(nth: number, sessionId: string, turns: number): Promise<ReminderRow> {
  const done = await eventually(async () => {
    const row = (await reminders())[nth];
    return row?.status === "done" ? row : undefined;
  });
  await eventually(async () => (completedTurns(await events(sessionId)).length >= turns ? true : undefined));
  return done;
}

/** The reminder messages stored, and whether each one's turn completed. */
async function deliveries(sessionId: string): Promise<{ message: string; completed: boolean }[]> {
  const all = await events(sessionId);
  const completed = new Set(completedTurns(all).map((event) => event.turnId));
  return reminderMessages(all).map((event) => ({ message: String(event.data.message), completed: completed.has(event.turnId) }));
}

const createReminder = (delay: string, prompt: string) => `reminders_create ${JSON.stringify({ delay, prompt })}`;

describe("prompt reminders on two bdk serve nodes sharing Postgres", () => {
  let sessionId: string;
  let continuationToken: string;

  it("delivers a reminder both nodes armed into its session once", async () => {
    const [a, b] = await Promise.all([node("a"), node("b")]);
    ({ sessionId, continuationToken } = await post(a, "/v1/session", { message: createReminder("4s", "Check the build.") }));
    const [armed] = await eventually(async () => ((await reminders()).length === 1 ? reminders() : undefined));
    expect(armed).toMatchObject({ status: "armed", prompt: "Check the build." });

    const done = await firedAndAnswered(0, sessionId, 2);
    expect(done.lastFiredAt).not.toBeNull();
    await Promise.all([a.stop(), b.stop()]);

    expect(await deliveries(sessionId)).toEqual([{ message: expect.stringContaining("Check the build."), completed: true }]);
    const all = await events(sessionId);
    expect(all.map((event) => event.index)).toEqual(all.map((_, i) => i));
  }, 240_000);

  it("fires the next reminder once on the survivor after kill -9 of the lease holder", async () => {
    const nodes = { c: await node("c"), d: await node("d") };
    // A first reminder on these nodes: whichever fires it holds the lease.
    // Each accepted message hands back the token for the next.
    ({ continuationToken } = await post(nodes.d, `/v1/session/${sessionId}`, { message: createReminder("3s", "Check the tests."), continuationToken }));
    await firedAndAnswered(1, sessionId, 4);
    const held = await remindersLease();
    expect(held).toBeDefined();
    // A holder is `<node id>#<random>`.
    const holderId = held!.holder.split("#")[0] as keyof typeof nodes;
    expect(Object.keys(nodes)).toContain(holderId);
    const survivor = nodes[holderId === "c" ? "d" : "c"];
    await nodes[holderId].stop("SIGKILL");

    await post(survivor, `/v1/session/${sessionId}`, { message: createReminder("2s", "Check the deploy."), continuationToken });
    const armed = await eventually(async () => (await reminders())[2]);
    // Due while the dead node's lease still holds: the survivor has to wait it out.
    expect(Date.parse(armed.nextFireAt!)).toBeLessThan(Date.parse(held!.expiresAt));
    const done = await firedAndAnswered(2, sessionId, 6);
    // Fired once the dead lease had expired, by the survivor, now the holder.
    expect(Date.parse(done.lastFiredAt!)).toBeGreaterThanOrEqual(Date.parse(held!.expiresAt));
    expect((await remindersLease())?.holder).not.toBe(held!.holder);
    await survivor.stop();

    expect(await deliveries(sessionId)).toEqual(
      ["Check the build.", "Check the tests.", "Check the deploy."].map((prompt) => ({ message: expect.stringContaining(prompt), completed: true })),
    );
  }, 240_000);
});
