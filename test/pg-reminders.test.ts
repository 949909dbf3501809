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
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { removeTempProjects } from "../server/load/testing/temp-project.ts";
import { readNdjson, type RunningServer, startServer } from "./support/bdk-server.ts";
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

async function node(): Promise<RunningServer> {
  const server = await startServer({
    dir,
    env: { BDK_DATABASE_URL: database.url, BDK_REMINDERS_LEASE_MS: String(LEASE_MS), BDK_REMINDERS_RESYNC_MS: "1000" },
  });
  servers.push(server);
  return server;
}

async function events(server: RunningServer, sessionId: string): Promise<Event[]> {
  return readNdjson<Event>(await fetch(`${server.url}/v1/session/${sessionId}/events`));
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

/** The session's events once `turns` turns have completed and none is running. */
async function afterTurns(server: RunningServer, sessionId: string, turns: number): Promise<Event[]> {
  return eventually(async () => {
    const all = await events(server, sessionId);
    return completedTurns(all).length >= turns && all.at(-1)?.type === "session.waiting" ? all : undefined;
  });
}

describe("prompt reminders on two bdk serve nodes sharing Postgres", () => {
  let a: RunningServer;
  let b: RunningServer;
  let sessionId: string;
  let continuationToken: string;

  it("delivers a reminder both nodes armed into its session once", async () => {
    [a, b] = await Promise.all([node(), node()]);
    const created = await post(a, "/v1/session", { message: 'reminders_create {"delay":"4s","prompt":"Check the build."}' });
    ({ sessionId, continuationToken } = created);
    const [reminder] = await eventually(async () => ((await reminders()).length === 1 ? reminders() : undefined));
    expect(reminder).toMatchObject({ status: "armed", prompt: "Check the build." });

    const done = await eventually(async () => ((await reminders())[0].status === "done" ? (await reminders())[0] : undefined));
    expect(done.lastFiredAt).not.toBeNull();
    const all = await afterTurns(b, sessionId, 2);
    const delivered = reminderMessages(all);
    expect(delivered).toHaveLength(1);
    expect(String(delivered[0].data.message)).toContain("Check the build.");
    // The reminder's message started a turn of its own, which completed.
    expect(completedTurns(all).map((event) => event.turnId)).toContain(delivered[0].turnId);
    // The message and the row's move to done are one transaction: the message is stored no later than the row says it fired.
    expect(Date.parse(delivered[0].at)).toBeGreaterThanOrEqual(Date.parse(done.lastFiredAt!) - 1_000);
    // Read from the other node: the same one log.
    expect(await events(a, sessionId)).toEqual(all);
  }, 240_000);

  it("fires the next reminder once on the survivor after kill -9 of the lease holder", async () => {
    const held = await remindersLease();
    expect(held).toBeDefined();
    // A holder is `host:pid:random`.
    const holder = [a, b].find((server) => held!.holder.endsWith(`:${server.child.pid}:${held!.holder.split(":").at(-1)}`));
    expect(holder).toBeDefined();
    const survivor = holder === a ? b : a;
    await holder!.stop("SIGKILL");

    const followUp = await post(survivor, `/v1/session/${sessionId}`, {
      message: 'reminders_create {"delay":"2s","prompt":"Check the deploy."}',
      continuationToken,
    });
    expect(followUp.sessionId).toBe(sessionId);
    const armed = await eventually(async () => (await reminders())[1]);
    // Due while the dead node's lease still holds: the survivor must wait it out.
    expect(Date.parse(armed.nextFireAt!)).toBeLessThan(Date.parse(held!.expiresAt));
    const done = await eventually(async () => {
      const second = (await reminders())[1];
      return second?.status === "done" ? second : undefined;
    });
    expect(done.prompt).toBe("Check the deploy.");
    const all = await afterTurns(survivor, sessionId, 4);
    const delivered = reminderMessages(all);
    expect(delivered.map((event) => String(event.data.message).includes("Check the deploy."))).toEqual([false, true]);
    expect(completedTurns(all)).toHaveLength(4);
    // Fired once the dead lease had expired, by the survivor, now the holder.
    expect(Date.parse(delivered[1].at)).toBeGreaterThanOrEqual(Date.parse(held!.expiresAt));
    expect((await remindersLease())?.holder).not.toBe(held!.holder);
  }, 240_000);
});
