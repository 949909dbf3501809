import { afterEach, describe, expect, it } from "vitest";
import { alice, bob, manualClock, tempRoots } from "./testing/temp-root.ts";

const roots = tempRoots();
afterEach(() => roots.cleanup());

function withApprovals() {
  const time = manualClock();
  const store = roots.open(roots.root(), time.clock);
  const mine = store.sessions.create({ mode: "chat", channel: "http", principal: alice });
  const theirs = store.sessions.create({ mode: "chat", channel: "http", principal: bob });
  const request = (sessionId: string, name: string) => {
    time.advance(1000);
    return store.approvals.create({ sessionId, turnId: "turn_1", toolCallId: `call_${name}`, name, input: { env: name } });
  };
  return { store, time, mine, theirs, request };
}

describe("store.approvals", () => {
  it("resolves once; the second resolve returns false and changes nothing", () => {
    const { store, time, mine, request } = withApprovals();
    const approval = request(mine.id, "deploy");
    expect(approval).toMatchObject({ status: "pending", input: { env: "deploy" }, resolvedAt: null });
    time.advance(5000);
    expect(store.approvals.resolve(approval.id, { approved: true, by: "user:alice", reason: "ok" })).toBe(true);
    expect(store.approvals.resolve(approval.id, { approved: false, by: "user:bob" })).toBe(false);
    expect(store.approvals.get(approval.id)).toMatchObject({
      status: "approved",
      resolvedBy: "user:alice",
      reason: "ok",
      resolvedAt: "2025-01-01T00:00:06.000Z",
    });
    expect(store.approvals.resolve("apr_missing", { approved: true, by: "x" })).toBe(false);
  });

  it("lists pending approvals oldest first, per principal, without deleted sessions", () => {
    const { store, mine, theirs, request } = withApprovals();
    const a = request(mine.id, "a");
    const b = request(theirs.id, "b");
    const c = request(mine.id, "c");
    store.approvals.resolve(c.id, { approved: false, by: "user:alice" });
    const d = request(mine.id, "d");
    expect(store.approvals.listPending().map((x) => x.id)).toEqual([a.id, b.id, d.id]);
    expect(store.approvals.listPending({ principal: alice }).map((x) => x.id)).toEqual([a.id, d.id]);
    expect(store.approvals.listPending({ principal: { type: "service", id: alice.id } })).toEqual([]);
    store.sessions.softDelete(theirs.id);
    expect(store.approvals.listPending().map((x) => x.id)).toEqual([a.id, d.id]);
  });

  it("stay resolvable after a restart", () => {
    const { store, mine, request } = withApprovals();
    const approval = request(mine.id, "deploy");
    store.close();
    const reopened = roots.open(store.stateRoot);
    expect(reopened.approvals.listPending().map((x) => x.id)).toEqual([approval.id]);
    expect(reopened.approvals.resolve(approval.id, { approved: false, by: "user:alice" })).toBe(true);
    expect(reopened.approvals.get(approval.id)?.status).toBe("denied");
  });
});
