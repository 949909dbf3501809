/**
 * Admission across nodes on Postgres (issue 16 item 3): real `bdk serve`
 * children on one database. A follow-up POSTed to node B while node A runs
 * the session's turn (held open by a gate file) preempts that turn, or,
 * with `coalesce`, runs right after it, as on one node. The lease is long
 * (60 s): a follow-up that waited for A's lease to lapse, or for B's lease
 * poll (a third of it), would not make the bounds below. And a turn parked
 * on an approval on A, decided through B's route, goes on on A.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { KIT_DIR, readNdjson, type RunningServer } from "./support/bdk-server.ts";
import { pgNodes } from "./support/pg-nodes.ts";

type Event = { type: string; index: number; turnId?: string; data?: Record<string, unknown> };
type Accepted = { sessionId: string; turnId: string; continuationToken: string };

const LEASE_MS = 60_000;
const BOT = path.join(KIT_DIR, "test", "fixtures", "slow-tool-bot");
const { database, node } = pgNodes(BOT);

async function post(server: RunningServer, route: string, body: unknown): Promise<Accepted> {
  const response = await fetch(`${server.url}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(response.status).toBe(202);
  return (await response.json()) as Accepted;
}

/** The session's stream on `server` from `startIndex` until `until` holds. */
async function streamUntil(server: RunningServer, sessionId: string, until: (event: Event) => boolean, startIndex = 0): Promise<Event[]> {
  return readNdjson<Event>(await fetch(`${server.url}/v1/session/${sessionId}/stream?startIndex=${startIndex}`), until);
}

/** A turn started on `owner` that waits on a gate file, once its tool runs there: the gate opens when the test writes it. */
async function gatedTurnOn(owner: RunningServer): Promise<{ created: Accepted; openGate: () => void }> {
  const gate = path.join(mkdtempSync(path.join(tmpdir(), "bdk-gate-")), "open");
  const created = await post(owner, "/v1/session", { message: `wait_for_gate ${JSON.stringify({ file: gate })}` });
  await streamUntil(owner, created.sessionId, (event) => event.type === "actions.requested");
  return { created, openGate: () => writeFileSync(gate, "") };
}

const turnEnds = (events: Event[]) =>
  events.filter((event) => event.type === "turn.completed" || event.type === "turn.failed").map((event) => ({ turnId: event.turnId, type: event.type, code: event.data?.code }));

describe("a follow-up on node B for a session whose turn runs on node A", () => {
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    const lease = { BDK_SESSION_LEASE_MS: String(LEASE_MS) };
    [a, b] = await Promise.all([node({ ...lease, BDK_NODE_ID: "node-a" }), node({ ...lease, BDK_NODE_ID: "node-b" })]);
  }, 240_000);

  it("preempts A's turn (it ends `preempted` while its gate is still shut) and its own turn runs next", async () => {
    const { created, openGate } = await gatedTurnOn(a);
    try {
      const next = await post(b, `/v1/session/${created.sessionId}`, { message: "never mind", continuationToken: created.continuationToken });
      const events = await streamUntil(b, created.sessionId, (event) => event.type === "turn.completed" && event.turnId === next.turnId);
      expect(turnEnds(events)).toEqual([
        { turnId: created.turnId, type: "turn.failed", code: "preempted" },
        { turnId: next.turnId, type: "turn.completed", code: undefined },
      ]);
      const received = events.filter((event) => event.type === "message.received");
      expect(received.map((event) => [event.turnId, event.data?.message])).toEqual([
        [created.turnId, expect.stringContaining("wait_for_gate")],
        [next.turnId, "never mind"],
      ]);
      expect(events.map((event) => event.index)).toEqual(events.map((_, index) => index));
    } finally {
      openGate();
    }
  }, 120_000);

  it("with `coalesce`, lets A's turn finish and runs right after it, not after a lease lapse", async () => {
    const { created, openGate } = await gatedTurnOn(a);
    const next = await post(b, `/v1/session/${created.sessionId}`, { message: "and then this", continuationToken: created.continuationToken, admission: "coalesce" });
    const done = streamUntil(b, created.sessionId, (event) => event.type === "turn.completed" && event.turnId === next.turnId);
    openGate();
    const openedAt = Date.now();
    const events = await done;
    // B waits for A's lease: woken by A's release, not by its poll (every third of the lease) nor by the lease lapsing.
    expect(Date.now() - openedAt).toBeLessThan(LEASE_MS / 3);
    expect(turnEnds(events)).toEqual([
      { turnId: created.turnId, type: "turn.completed", code: undefined },
      { turnId: next.turnId, type: "turn.completed", code: undefined },
    ]);
    expect(events.filter((event) => event.type === "message.received").map((event) => event.turnId)).toEqual([created.turnId, next.turnId]);
    expect(events.map((event) => event.index)).toEqual(events.map((_, index) => index));
  }, 120_000);

  it("resumes on A a turn parked there whose approval is decided through B", async () => {
    const created = await post(a, "/v1/session", { message: 'refund {"amount": 5}' });
    const parked = (await streamUntil(a, created.sessionId, (event) => event.type === "action.approval_requested")).at(-1)!;
    const decided = await fetch(`${b.url}/v1/session/${created.sessionId}/approvals/${String(parked.data?.approvalId)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ approved: true }),
    });
    expect(decided.status).toBe(200);
    expect(await decided.json()).toMatchObject({ status: "approved" });
    const decidedAt = Date.now();
    const events = await streamUntil(b, created.sessionId, (event) => event.type === "session.waiting");
    // Woken by the decision's notification, not by a heartbeat (every third of the lease).
    expect(Date.now() - decidedAt).toBeLessThan(LEASE_MS / 3);
    expect(events.find((event) => event.type === "action.result")?.data).toMatchObject({ isError: false, output: { refunded: 5 } });
    expect(events.filter((event) => event.type === "action.approval_resolved")).toHaveLength(1);
    expect(turnEnds(events)).toEqual([{ turnId: created.turnId, type: "turn.completed", code: undefined }]);
    expect(events.map((event) => event.index)).toEqual(events.map((_, index) => index));
    // A ran it to the end: B never took the session.
    const client = new pg.Client({ connectionString: database().url });
    await client.connect();
    try {
      const { rows } = await client.query<{ holder: string; token: string }>("SELECT holder, token FROM session_owners WHERE session_id = $1", [created.sessionId]);
      expect(rows).toEqual([{ holder: expect.stringMatching(/^node-a#/), token: "1" }]);
    } finally {
      await client.end();
    }
  }, 120_000);
});
