import { afterEach, describe, expect, it } from "vitest";
import { tempRoots } from "./testing/temp-root.ts";

const roots = tempRoots();
afterEach(() => roots.cleanup());

describe("store.kv", () => {
  it("stores JSON values per agent and keeps them across a reopen", () => {
    const stateRoot = roots.root();
    const store = roots.open(stateRoot);
    store.kv.put("triage", "count", 1);
    store.kv.put("triage", "count", 2);
    store.kv.put("triage", "nothing", null);
    store.kv.put("triage", "deep", { list: [1, "two", { three: true }] });
    store.kv.put("other", "count", 99);
    store.close();

    const reopened = roots.open(stateRoot);
    expect(reopened.kv.get("triage", "count")).toBe(2);
    expect(reopened.kv.get("triage", "nothing")).toBeNull();
    expect(reopened.kv.get("triage", "deep")).toEqual({ list: [1, "two", { three: true }] });
    expect(reopened.kv.get("triage", "missing")).toBeUndefined();
    expect(reopened.kv.get("other", "count")).toBe(99);
  });

  it("deletes and lists by prefix in key order", () => {
    const store = roots.open(roots.root());
    for (const key of ["memory:bob", "memory:alice", "memo", "prefs", "memory:%"]) store.kv.put("a", key, key.length);
    store.kv.put("b", "memory:carol", 1);
    expect(store.kv.list("a", "memory:").map((e) => e.key)).toEqual(["memory:%", "memory:alice", "memory:bob"]);
    expect(store.kv.list("a").map((e) => e.key)).toEqual(["memo", "memory:%", "memory:alice", "memory:bob", "prefs"]);
    expect(store.kv.delete("a", "memo")).toBe(true);
    expect(store.kv.delete("a", "memo")).toBe(false);
    expect(store.kv.get("a", "memo")).toBeUndefined();
  });
});
