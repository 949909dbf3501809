import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Principal } from "../protocol/events.ts";
import { asyncStore } from "../store/async-store.ts";
import { openStore, type Store } from "../store/index.ts";
import { turnStatusLine } from "./stream-status.ts";

const me: Principal = { type: "user", id: "u1" };
const now = new Date("2026-03-01T12:00:00.000Z");
const stores: Store[] = [];

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

function setup() {
  const store = openStore(mkdtempSync(path.join(tmpdir(), "bdk-stream-status-")));
  stores.push(store);
  const session = store.sessions.create({ mode: "chat", channel: "http", principal: me });
  const status = (runsHere: boolean) => turnStatusLine(session.id, { store: asyncStore(store), nodeId: "node-a:1", runsHere, now });
  return { store, sessionId: session.id, status };
}

describe("the keepalive of a session's stream", () => {
  it("says nothing while the session has no turn", async () => {
    const { store, sessionId, status } = setup();
    store.turns.create({ id: "turn_done", sessionId, status: "completed", message: "hi" });
    expect(await status(true)).toBeUndefined();
  });

  it("names this node as owner of a turn it runs, and a queued turn's wait for a slot since its turn.queued", async () => {
    const { store, sessionId, status } = setup();
    store.turns.create({ id: "turn_1", sessionId, status: "queued", message: "hi" });
    const [queued] = store.events.append(sessionId, [{ type: "turn.queued", turnId: "turn_1", data: { position: 2 } }]);
    expect(await status(true)).toEqual({
      type: "stream.keepalive",
      at: now.toISOString(),
      turnId: "turn_1",
      turnStatus: "queued",
      owner: "node-a:1",
      waiting: { for: "slot", since: queued.at },
    });
    // Run elsewhere without a lease: the owner is not known here.
    expect(await status(false)).not.toHaveProperty("owner");
  });

  it("reports the running turn's wait for an approval since it was asked, and no wait once it is answered", async () => {
    const { store, sessionId, status } = setup();
    store.turns.create({ id: "turn_2", sessionId, status: "queued", message: "next" });
    store.turns.create({ id: "turn_1", sessionId, status: "running", message: "pay" });
    const approval = store.approvals.create({ sessionId, turnId: "turn_1", toolCallId: "call_1", name: "pay", input: {} });
    expect(await status(true)).toMatchObject({ turnId: "turn_1", turnStatus: "running", waiting: { for: "approval", since: approval.createdAt } });
    store.approvals.resolve(approval.id, { approved: true, by: "u1" });
    const line = await status(true);
    expect(line).toMatchObject({ turnId: "turn_1", turnStatus: "running", owner: "node-a:1" });
    expect(line).not.toHaveProperty("waiting");
  });
});
