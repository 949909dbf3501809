/**
 * Cross-node follow on Postgres (issue 16 items 3 and 5): real `bdk serve`
 * children on one database. A follower on one node receives the events of a
 * turn another node runs while that turn is still running (the turn waits
 * on a gate file the test creates only once the follower has seen the
 * turn's tool call), each once and in order, whether the wake-up comes from
 * LISTEN/NOTIFY or from the poll that stands in for a lost notification.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { turnStatusLine } from "../server/sessions/stream-status.ts";
import { openPgStore } from "../server/store/pg/store.ts";
import { KIT_DIR, readNdjson, type RunningServer } from "./support/bdk-server.ts";
import { pgNodes } from "./support/pg-nodes.ts";

type Event = { type: string; index: number; turnId?: string };
type Created = { sessionId: string; turnId: string };

const BOT = path.join(KIT_DIR, "test", "fixtures", "slow-tool-bot");
const { database, node } = pgNodes(BOT);

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: database().url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Starts on `owner` a turn held open by a gate, follows the session on
 * `follower` from index 0, and opens the gate only when the follower has
 * received the turn's tool call: the stream the follower got until the
 * session waits again. `onToolCall` runs at that moment, before the gate opens.
 */
async function followGatedTurn(owner: RunningServer, follower: RunningServer, onToolCall: () => Promise<void> = async () => {}): Promise<{ created: Created; followed: Event[] }> {
  const gate = path.join(mkdtempSync(path.join(tmpdir(), "bdk-gate-")), "open");
  const response = await fetch(`${owner.url}/v1/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message: `wait_for_gate ${JSON.stringify({ file: gate })}` }),
  });
  expect(response.status).toBe(202);
  const created = (await response.json()) as Created;
  const stream = await fetch(`${follower.url}/v1/session/${created.sessionId}/stream?startIndex=0`);
  let released: Promise<void> | undefined;
  const followed = await readNdjson<Event>(stream, (event) => {
    // The turn cannot end before the gate opens: this event reached the follower while the turn ran on the owner.
    if (event.type === "actions.requested") released = onToolCall().then(() => writeFileSync(gate, ""));
    return event.type === "session.waiting";
  });
  await released;
  return { created, followed };
}

async function stored(server: RunningServer, sessionId: string): Promise<Event[]> {
  return readNdjson<Event>(await fetch(`${server.url}/v1/session/${sessionId}/events`));
}

describe("following a session on another node", () => {
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    [a, b] = await Promise.all([node(), node({ BDK_NODE_ID: "node-b" })]);
  }, 240_000);

  it("delivers every event of a turn running on A to a follower on B, live, in order, once", async () => {
    const { created, followed } = await followGatedTurn(a, b);
    expect(followed.map((event) => event.index)).toEqual(followed.map((_, i) => i));
    expect(followed.map((event) => event.type)).toEqual(expect.arrayContaining(["message.received", "actions.requested", "action.result", "turn.completed"]));
    expect(followed).toEqual(await stored(a, created.sessionId));
  }, 120_000);

  it("still delivers everything when B's LISTEN connection is killed mid-turn, and listens again", async () => {
    const listening = () =>
      query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'bdk listen node-b'");
    // One LISTEN connection per node that follows a session or holds a lease: B's, named after the node.
    const [before] = await listening();
    expect(before).toBeDefined();
    const { created, followed } = await followGatedTurn(a, b, async () => {
      await query("SELECT pg_terminate_backend($1)", [before.pid]);
    });
    expect(followed).toEqual(await stored(a, created.sessionId));
    expect(b.output()).toContain("The LISTEN connection for live events from other nodes dropped");
    // B reconnects (with backoff): a later turn is woken by notifications again.
    while (!(await listening()).some((row) => row.pid !== before.pid)) await new Promise((resolve) => setTimeout(resolve, 50));
  }, 120_000);

  it("delivers everything on a node that does not LISTEN (BDK_PG_LISTEN=off): the poll alone wakes it", async () => {
    const c = await node({ BDK_PG_LISTEN: "off" });
    const { created, followed } = await followGatedTurn(a, c);
    expect(followed.map((event) => event.index)).toEqual(followed.map((_, i) => i));
    expect(followed).toEqual(await stored(a, created.sessionId));
  }, 240_000);
});

describe("the keepalive of a turn on Postgres", () => {
  it("names the lease holder and its expiry, and a lapsed lease as what the turn waits for", async () => {
    const store = await openPgStore(await database().fresh());
    try {
      const session = await store.sessions.create({ mode: "chat", channel: "http", principal: { type: "user", id: "u1" } });
      await store.turns.create({ id: "turn_1", sessionId: session.id, status: "running", message: "hi" });
      const context = (now: Date) => ({ store, nodeId: "this-node:1", runsHere: false, now });
      await store.pool.query("INSERT INTO session_owners (session_id, holder, token, expires_at) VALUES ($1, 'node-a:7', 3, $2)", [
        session.id,
        "2026-03-01T12:00:10.000Z",
      ]);
      expect(await turnStatusLine(session.id, context(new Date("2026-03-01T12:00:00.000Z")))).toEqual({
        type: "stream.keepalive",
        at: "2026-03-01T12:00:00.000Z",
        turnId: "turn_1",
        turnStatus: "running",
        owner: "node-a:7",
        leaseExpiresAt: "2026-03-01T12:00:10.000Z",
      });
      expect(await turnStatusLine(session.id, context(new Date("2026-03-01T12:00:30.000Z")))).toMatchObject({
        owner: "node-a:7",
        waiting: { for: "lease", since: "2026-03-01T12:00:10.000Z" },
      });
    } finally {
      await store.close();
    }
  }, 120_000);
});
