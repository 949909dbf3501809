/**
 * A turn parked on an approval by a node that then goes away (issue 16):
 * real `bdk serve` processes on one Postgres, a short lease. Node A parks a
 * write call on its approval, then is stopped (SIGTERM) or killed (-9); its
 * lease lapses, another node's sweep adopts the session (takes the lease)
 * and the turn stays parked. Deciding the approval through the adopter, or
 * through a node that is not, resumes the turn to its end on the adopter:
 * the call runs once, the log is gap-free, and a follow-up runs after it.
 * A message instead of a decision stops the parked turn (its approval
 * denied, the call never run), as on one node, whether it reaches the
 * session before the adoption or after it through a node that is not the
 * adopter.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { readNdjson, type RunningServer } from "./support/bdk-server.ts";
import { chargeBot } from "./support/charge-bot.ts";
import { pgNodes } from "./support/pg-nodes.ts";

type Event = { type: string; index: number; turnId?: string; data?: Record<string, unknown> };
type Accepted = { sessionId: string; turnId: string; continuationToken: string };

const LEASE_MS = 3000;
const bot = chargeBot("parked-adoption-bot", { approved: true });
const { database, node } = pgNodes(bot.dir);

/** `names`' nodes, for `test`; all stopped after it, so no node of an earlier test sweeps (and adopts) a later one's session. */
async function withNodes(names: string[], test: (...nodes: RunningServer[]) => Promise<void>): Promise<void> {
  const nodes = await Promise.all(names.map((name) => node({ BDK_SESSION_LEASE_MS: String(LEASE_MS), BDK_NODE_ID: name, CHARGE_LOG: bot.chargeLog })));
  try {
    await test(...nodes);
  } finally {
    await Promise.all(nodes.map((server) => server.stop("SIGKILL")));
  }
}

async function post(server: RunningServer, route: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

async function streamUntil(server: RunningServer, sessionId: string, until: (event: Event) => boolean, startIndex = 0): Promise<Event[]> {
  return readNdjson<Event>(await fetch(`${server.url}/v1/session/${sessionId}/stream?startIndex=${startIndex}`), until);
}

/** The holder of the session's lease, polled until it is one of `names`' (the adopter's). */
async function adopter(sessionId: string, names: string[]): Promise<string> {
  const client = new pg.Client({ connectionString: database().url });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ holder: string }>("SELECT holder FROM session_owners WHERE session_id = $1", [sessionId]);
      const name = names.find((candidate) => rows[0]?.holder.startsWith(`${candidate}#`));
      if (name) return name;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
}

/** A session whose turn, on `owner`, parks `charge_card` on its approval; returns it and the approval's id. */
async function parkedOn(owner: RunningServer, amount: number): Promise<{ created: Accepted; approvalId: string }> {
  const created = (await (await post(owner, "/v1/session", { message: `charge_card ${JSON.stringify({ amount })}` })).json()) as Accepted;
  const requested = (await streamUntil(owner, created.sessionId, (event) => event.type === "action.approval_requested")).at(-1)!;
  return { created, approvalId: String(requested.data?.approvalId) };
}

/** Approves through `via`, reads the session there until the turn ends, and checks it ran to its end, its call once. */
async function approveThrough(via: RunningServer, created: Accepted, approvalId: string, amount: number): Promise<Event[]> {
  const decided = await post(via, `/v1/session/${created.sessionId}/approvals/${approvalId}`, { approved: true });
  expect(decided.status).toBe(200);
  const decidedAt = Date.now();
  const events = await streamUntil(via, created.sessionId, (event) => event.type === "turn.completed" || event.type === "turn.failed");
  const ofTurn = events.filter((event) => event.turnId === created.turnId);
  expect(ofTurn.at(-1)?.type).toBe("turn.completed");
  console.log(`resumed turn completed ${Date.now() - decidedAt} ms after the decision`);
  expect(ofTurn.filter((event) => event.type === "message.received")).toHaveLength(1);
  expect(ofTurn.filter((event) => event.type === "action.approval_requested")).toHaveLength(1);
  expect(ofTurn.filter((event) => event.type === "action.approval_resolved").map((event) => event.data?.approved)).toEqual([true]);
  expect(ofTurn.filter((event) => event.type === "action.result").map((event) => event.data)).toEqual([
    expect.objectContaining({ name: "charge_card", isError: false, output: { charged: amount } }),
  ]);
  expect(bot.charges().split("\n").filter((line) => line === `charged ${amount}`)).toHaveLength(1);
  return events;
}

/** A follow-up through `via` after the resumed turn (`events` so far) runs; the whole log is gap-free, every turn completed. */
async function followUp(via: RunningServer, created: Accepted, events: Event[]): Promise<void> {
  const next = (await (await post(via, `/v1/session/${created.sessionId}`, { message: "thanks", continuationToken: created.continuationToken })).json()) as Accepted;
  await streamUntil(via, created.sessionId, (event) => event.type === "turn.completed" && event.turnId === next.turnId, events.length);
  const stored = await readNdjson<Event>(await fetch(`${via.url}/v1/session/${created.sessionId}/events`));
  expect(stored.map((event) => event.index)).toEqual(stored.map((_, index) => index));
  expect(stored.filter((event) => event.type === "turn.completed").map((event) => event.turnId)).toEqual([created.turnId, next.turnId]);
  expect(stored.filter((event) => event.type === "turn.failed")).toEqual([]);
}

describe("a turn parked on an approval by a node that goes away", () => {
  it("stopped with SIGTERM: the other node adopts it and, approved there, runs it to its end once", () =>
    withNodes(["node-a", "node-b"], async (a, b) => {
      const { created, approvalId } = await parkedOn(a, 7);
      await a.stop("SIGTERM");
      const stoppedAt = Date.now();
      expect(await adopter(created.sessionId, ["node-b"])).toBe("node-b");
      console.log(`parked turn adopted ${Date.now() - stoppedAt} ms after SIGTERM (lease ${LEASE_MS} ms)`);
      await followUp(b, created, await approveThrough(b, created, approvalId, 7));
    }), 240_000);

  it("killed with -9: one node adopts it and, approved through the other, the adopter runs it to its end once", () =>
    withNodes(["node-a2", "node-b2", "node-c2"], async (a, b, c) => {
      const { created, approvalId } = await parkedOn(a, 9);
      await a.stop("SIGKILL");
      const killedAt = Date.now();
      const adopted = await adopter(created.sessionId, ["node-b2", "node-c2"]);
      console.log(`parked turn adopted by ${adopted} ${Date.now() - killedAt} ms after kill -9 (lease ${LEASE_MS} ms)`);
      const deciding = adopted === "node-b2" ? c : b;
      const events = await approveThrough(deciding, created, approvalId, 9);
      // The adopter ran the resumed turn: the lease stayed with it (the deciding node never took the session).
      expect(await adopter(created.sessionId, ["node-b2", "node-c2"])).toBe(adopted);
      await followUp(deciding, created, events);
    }), 240_000);

  it("killed with -9, then a message through the other node before any adoption: the parked call is denied, never run, and the message's turn runs", () =>
    withNodes(["node-a3", "node-b3"], async (a, b) => {
      const { created } = await parkedOn(a, 11);
      await a.stop("SIGKILL");
      // Busy with this message, B's sweep leaves the session to it: the message's turn takes the lapsed lease and stops the parked turn first.
      const next = (await (await post(b, `/v1/session/${created.sessionId}`, { message: "forget it", continuationToken: created.continuationToken })).json()) as Accepted;
      const events = await streamUntil(b, created.sessionId, (event) => event.type === "turn.completed" && event.turnId === next.turnId);
      expect(events.map((event) => event.index)).toEqual(events.map((_, index) => index));
      expect(events.filter((event) => event.type === "action.approval_resolved").map((event) => event.data)).toEqual([
        expect.objectContaining({ approved: false, by: "system" }),
      ]);
      expect(events.filter((event) => event.type === "action.result" && event.turnId === created.turnId)).toEqual([]);
      const ends = events.filter((event) => event.type === "turn.failed" || event.type === "turn.completed").map((event) => [event.turnId, event.type, event.data?.code]);
      expect(ends).toEqual([
        [created.turnId, "turn.failed", "cancelled"],
        [next.turnId, "turn.completed", undefined],
      ]);
      const stoppedAt = events.findIndex((event) => event.turnId === created.turnId && event.type === "turn.failed");
      expect(events.findIndex((event) => event.turnId === next.turnId && event.type === "message.received")).toBeGreaterThan(stoppedAt);
      expect(bot.charges()).not.toContain("charged 11");
    }), 240_000);

  it("adopted, then a message through a node that is not the adopter: the adopter stops the parked turn and lets the session go to it", () =>
    withNodes(["node-a4", "node-b4", "node-c4"], async (a, b, c) => {
      const { created } = await parkedOn(a, 13);
      await a.stop("SIGKILL");
      const adopted = await adopter(created.sessionId, ["node-b4", "node-c4"]);
      const [other, otherName] = adopted === "node-b4" ? [c, "node-c4"] : [b, "node-b4"];
      const next = (await (await post(other, `/v1/session/${created.sessionId}`, { message: "forget it", continuationToken: created.continuationToken })).json()) as Accepted;
      const events = await streamUntil(other, created.sessionId, (event) => event.type === "turn.completed" && event.turnId === next.turnId);
      expect(events.map((event) => event.index)).toEqual(events.map((_, index) => index));
      expect(events.filter((event) => event.type === "action.approval_resolved").map((event) => event.data)).toEqual([
        expect.objectContaining({ approved: false, by: "system" }),
      ]);
      const ends = events.filter((event) => event.type === "turn.failed" || event.type === "turn.completed").map((event) => [event.turnId, event.type, event.data?.code]);
      expect(ends).toEqual([
        [created.turnId, "turn.failed", "cancelled"],
        [next.turnId, "turn.completed", undefined],
      ]);
      expect(bot.charges()).not.toContain("charged 13");
      // The session went to the node that took the message.
      expect(await adopter(created.sessionId, [otherName])).toBe(otherName);
    }), 240_000);
});
