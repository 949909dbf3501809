import { afterEach, describe, expect, it } from "vitest";
import { alice, bob, manualClock, tempRoots } from "./testing/temp-root.ts";

const roots = tempRoots();
afterEach(() => roots.cleanup());

describe("store.artifacts", () => {
  it("upserts by kind + key, keeps contents apart from the record, and deletes", () => {
    const time = manualClock();
    const store = roots.open(roots.root(), time.clock);
    const session = store.sessions.create({ mode: "chat", channel: "http", principal: alice });
    const first = store.artifacts.upsert({ kind: "report", key: "pr-42", title: "Draft", data: { score: 1 }, sessionId: session.id });
    time.advance(1000);
    const second = store.artifacts.upsert({
      kind: "report",
      key: "pr-42",
      title: "Final",
      contents: "# Report\n",
      contentType: "text/markdown",
      sessionId: session.id,
    });
    time.advance(1000);
    const other = store.artifacts.upsert({ kind: "image", key: "logo", title: "Logo", contents: new Uint8Array([1, 2, 3]) });

    expect(second.id).toBe(first.id);
    expect(second).toMatchObject({ title: "Final", data: null, size: 9, sessionId: session.id, createdAt: first.createdAt });
    expect(second.updatedAt > first.updatedAt).toBe(true);
    expect(store.artifacts.get(first.id)).toEqual(second);
    expect(store.artifacts.contents(first.id)).toEqual({ contents: Buffer.from("# Report\n"), contentType: "text/markdown" });
    expect(store.artifacts.contents(other.id)?.contents).toEqual(Buffer.from([1, 2, 3]));
    expect(store.artifacts.list().map((a) => a.id)).toEqual([other.id, first.id]);
    expect(store.artifacts.list({ kind: "report", key: "pr-42" }).map((a) => a.id)).toEqual([first.id]);

    store.sessions.delete(session.id);
    expect(store.artifacts.get(first.id)?.sessionId).toBeNull();
    expect(store.artifacts.delete(first.id)).toBe(true);
    expect(store.artifacts.get(first.id)).toBeUndefined();
    expect(store.artifacts.contents(first.id)).toBeUndefined();
  });

  it("keys records by owner: another principal's tag of the same kind + key is a record of its own", () => {
    const store = roots.open(roots.root());
    const alices = store.sessions.create({ mode: "chat", channel: "http", principal: alice });
    const bobs = store.sessions.create({ mode: "chat", channel: "http", principal: bob });
    const sameIdService = store.sessions.create({ mode: "chat", channel: "http", principal: { type: "service", id: alice.id } });
    const own = store.artifacts.upsert({ kind: "report", key: "q3", title: "Alice's", contents: "alice", sessionId: alices.id });
    const theirs = store.artifacts.upsert({ kind: "report", key: "q3", title: "Bob's", contents: "bob", sessionId: bobs.id });
    const service = store.artifacts.upsert({ kind: "report", key: "q3", title: "Service's", sessionId: sameIdService.id });
    const open = store.artifacts.upsert({ kind: "report", key: "q3", title: "Nobody's" });
    const openAgain = store.artifacts.upsert({ kind: "report", key: "q3", title: "Nobody's, again" });
    const ownAgain = store.artifacts.upsert({ kind: "report", key: "q3", title: "Alice's, again", sessionId: alices.id });

    expect(new Set([own.id, theirs.id, service.id, open.id]).size).toBe(4);
    expect(openAgain.id).toBe(open.id);
    expect(ownAgain.id).toBe(own.id);
    expect(store.artifacts.get(own.id)).toMatchObject({ title: "Alice's, again", owner: alice });
    expect(store.artifacts.get(theirs.id)).toMatchObject({ title: "Bob's", owner: bob });
    expect(store.artifacts.contents(theirs.id)?.contents.toString()).toBe("bob");
    expect(store.artifacts.list({ kind: "report", key: "q3", visibleTo: bob }).map((a) => a.title).sort()).toEqual(["Bob's", "Nobody's, again"]);
  });

  it("records the tagging session's principal as owner and filters by it before the limit", () => {
    const store = roots.open(roots.root());
    const alices = store.sessions.create({ mode: "chat", channel: "http", principal: alice });
    const bobs = store.sessions.create({ mode: "chat", channel: "http", principal: bob });
    const own = store.artifacts.upsert({ kind: "note", key: "a", title: "Alice's", sessionId: alices.id });
    for (const key of ["b1", "b2", "b3"]) store.artifacts.upsert({ kind: "note", key, title: "Bob's", sessionId: bobs.id });
    const open = store.artifacts.upsert({ kind: "note", key: "shared", title: "Shared" });

    expect(own.owner).toEqual(alice);
    expect(open.owner).toBeNull();
    expect(store.artifacts.list({ visibleTo: alice, limit: 2 }).map((a) => a.id).sort()).toEqual([own.id, open.id].sort());
    store.sessions.delete(alices.id);
    expect(store.artifacts.get(own.id)?.owner).toEqual(alice);
  });
});
