/**
 * `bdk serve --database-url` against a real PostgreSQL (scripts/postgres.sh):
 * real server processes whose sessions live in the database, not in their
 * state roots. A session survives a restart with a fresh state root, and two
 * servers on one database serve the same session: replayed from either, a
 * follow-up accepted on the other, indexes gap-free.
 */
import { createServer, type Socket } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openPgStore } from "../server/store/pg/store.ts";
import { BIN, KIT_DIR, readNdjson, type RunningServer, startServer } from "./support/bdk-server.ts";
import { pgNodes } from "./support/pg-nodes.ts";
import { startProcess } from "./support/run-process.ts";

type Event = { type: string; index: number; turnId?: string; data: Record<string, unknown> };
type Created = { sessionId: string; continuationToken: string; turnId: string };

const HELLO = path.join(KIT_DIR, "bot-examples", "hello");
/** Servers on the test database, each with a state root of its own: whatever they share is in Postgres. */
const { database, node } = pgNodes(HELLO);

async function post(server: RunningServer, route: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

/** The stream of a session from `startIndex` until its turn ends (`session.waiting`). */
async function untilWaiting(server: RunningServer, sessionId: string, startIndex = 0): Promise<Event[]> {
  return readNdjson<Event>(await fetch(`${server.url}/v1/session/${sessionId}/stream?startIndex=${startIndex}`), (event) => event.type === "session.waiting");
}

async function storedEvents(server: RunningServer, sessionId: string): Promise<Event[]> {
  return readNdjson<Event>(await fetch(`${server.url}/v1/session/${sessionId}/events`));
}

describe("bdk serve on Postgres", () => {
  let first: Created;
  let a: RunningServer;

  it("runs a turn over HTTP and stores it in the database", async () => {
    a = await node();
    const created = await post(a, "/v1/session", { message: "hello there" });
    expect(created.status).toBe(202);
    first = (await created.json()) as Created;
    const events = await untilWaiting(a, first.sessionId);
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(["session.started", "message.received", "turn.completed", "session.waiting"]));
    const { rows } = await query("SELECT status FROM turns WHERE id = $1", [first.turnId]);
    expect(rows).toEqual([{ status: "completed" }]);
  }, 240_000);

  it("keeps the session across a restart with a fresh state root", async () => {
    await a.stop();
    a = await node();
    const read = await fetch(`${a.url}/v1/session/${first.sessionId}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { session: { id: string; status: string } }).session).toMatchObject({ id: first.sessionId, status: "waiting" });
    expect((await storedEvents(a, first.sessionId)).at(-1)?.type).toBe("session.waiting");
  }, 240_000);

  it("serves a session started on one node from another: replay, then a follow-up", async () => {
    const b = await node();
    const created = (await (await post(a, "/v1/session", { message: "started on A" })).json()) as Created;
    const onA = await untilWaiting(a, created.sessionId);

    const replayed = await untilWaiting(b, created.sessionId);
    expect(replayed).toEqual(onA);

    const followUp = await post(b, `/v1/session/${created.sessionId}`, { message: "continued on B", continuationToken: created.continuationToken });
    expect(followUp.status).toBe(202);
    const { turnId } = (await followUp.json()) as Created;
    const onB = await untilWaiting(b, created.sessionId, onA.length);
    expect(onB[0]).toMatchObject({ index: onA.length, type: "message.received", turnId, data: { message: "continued on B" } });
    expect(onB.map((event) => event.type)).toContain("turn.completed");

    // Node A reads what B appended, from the same table: one gap-free log.
    const stored = await storedEvents(a, created.sessionId);
    expect(stored.map((event) => event.index)).toEqual(stored.map((_, i) => i));
    expect(stored).toEqual([...onA, ...onB]);
  }, 240_000);
});

describe("a database URL bdk serve cannot use", () => {
  /** `bdk serve` that must stop at start: its exit code and what it printed on stderr. */
  async function refused(args: string[], env: Record<string, string> = {}) {
    const { code, stderr } = await startProcess(process.execPath, [BIN, "serve", "--port", "0", ...args], { env: { BDK_MODEL: "scripted", ...env } }).done;
    return { code, lines: stderr.trim().split("\n") };
  }

  it("refuses a URL that is not postgres:// in one line", async () => {
    const { code, lines } = await refused(["--dir", HELLO, "--database-url", "mysql://db.example/bots"]);
    expect(code).toBe(1);
    expect(lines).toEqual(["bdk serve: The database URL must start with postgres:// or postgresql://, got mysql://."]);
  }, 120_000);

  it("refuses a session lease that is not a whole number of milliseconds, in one line", async () => {
    const { code, lines } = await refused(["--dir", HELLO], { BDK_DATABASE_URL: database().url, BDK_SESSION_LEASE_MS: "15s" });
    expect(code).toBe(1);
    expect(lines).toEqual(['bdk serve: BDK_SESSION_LEASE_MS must be a whole number of milliseconds, at least 300; got "15s".']);
  }, 120_000);

  it("names an unreachable database in one line, without its password", async () => {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const { code, lines } = await refused(["--dir", HELLO], { BDK_DATABASE_URL: "postgres://bot:s3cret@127.0.0.1:1/bots" });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^bdk serve: Could not open the Postgres database postgres:\/\/bot:\*\*\*@127\.0\.0\.1:1\/bots: .*ECONNREFUSED/);
  }, 120_000);

  it("gives up on a database that accepts the connection and never answers", async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    try {
      await expect(openPgStore(`postgres://bot@127.0.0.1:${port}/bots`, { connectTimeoutMs: 300 })).rejects.toThrow(
        new RegExp(`^Could not open the Postgres database postgres://bot@127\\.0\\.0\\.1:${port}/bots: .*timeout`),
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it("serves an agent with channels and schedules: they run on the shared store", async () => {
    // A database of its own: one project per database.
    const own = await database().fresh();
    const server = await startServer({ dir: path.join(KIT_DIR, "bot-examples", "pr-approver"), env: { BDK_DATABASE_URL: own } });
    try {
      const created = await post(server, "/v1/session", { message: "Inspect https://github.com/acme/checkout/pull/7" });
      expect(created.status).toBe(202);
      const { sessionId } = (await created.json()) as Created;
      const events = await untilWaiting(server, sessionId);
      expect(events.some((event) => event.type === "turn.completed")).toBe(true);
      const { rows } = await queryOn(own, "SELECT count(*)::int AS n FROM events WHERE session_id = $1", [sessionId]);
      expect((rows[0] as { n: number }).n).toBe(events.length);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

async function query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> {
  return queryOn(database().url, text, values);
}

async function queryOn(url: string, text: string, values: unknown[]): Promise<{ rows: unknown[] }> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}
