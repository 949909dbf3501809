import { afterEach, describe, expect, it } from "vitest";
import { asyncStore } from "./async-store.ts";
import { heldOpen } from "./testing/held-open.ts";
import { alice, tempRoots } from "./testing/temp-root.ts";

// The dialect-independent behaviours of transactions run on both stores in test/store-dialects.test.ts; here, what only SQLite has: one connection per store, one thread per process.

const roots = tempRoots();
afterEach(() => roots.cleanup());

describe("async transactions on the one SQLite connection", () => {
  it("a write from outside an open async transaction waits for it, and its rollback keeps that write", async () => {
    const sync = roots.open(roots.root());
    const store = asyncStore(sync);
    const held = heldOpen(store, (tx) => tx.kv.put("a", "inside", 1));
    await held.isOpen;
    const outside = store.kv.put("a", "outside", 2);
    // Not seen by the open transaction either: the outside read waits like the write.
    const readOutside = store.kv.get("a", "inside");
    held.release();
    await expect(held.done).rejects.toThrow("rolled back");
    await outside;
    expect(await readOutside).toBeUndefined();
    expect(await store.kv.get("a", "outside")).toBe(2);
    expect(await store.kv.get("a", "inside")).toBeUndefined();
  });

  it("a replay reading from outside an open async transaction never sees its uncommitted events", async () => {
    const sync = roots.open(roots.root());
    const store = asyncStore(sync);
    const { id } = sync.sessions.create({ mode: "chat", channel: "http", principal: alice });
    sync.events.append(id, [{ type: "step.started", data: { step: 0 } }]);
    const held = heldOpen(store, (tx) => tx.events.append(id, [{ type: "step.started", data: { step: 1 } }]));
    await held.isOpen;
    const steps = store.events.iterate(id, 0, 1);
    const first = steps.next();
    const second = first.then(() => steps.next());
    // Room for both steps to run while the transaction is open, were they not made to wait.
    await new Promise((resolve) => setImmediate(resolve));
    held.release();
    await expect(held.done).rejects.toThrow("rolled back");
    const seen = [await first, await second].flatMap((step) => (step.done ? [] : step.value.map((event) => event.index)));
    expect(seen).toEqual([0]);
  });

  it("a synchronous transaction started outside an open async one throws instead of joining it", async () => {
    const sync = roots.open(roots.root());
    const store = asyncStore(sync);
    const held = heldOpen(store, (tx) => tx.kv.put("a", "inside", 1));
    await held.isOpen;
    expect(() => sync.transaction(() => sync.kv.put("a", "sync", 3))).toThrow(/cannot start while an asynchronous one is open/);
    held.release();
    await expect(held.done).rejects.toThrow("rolled back");
    // Once it has ended, synchronous transactions run again.
    sync.transaction(() => sync.kv.put("a", "sync", 3));
    expect(sync.kv.get("a", "sync")).toBe(3);
  });

  it("inside the async transaction's work, synchronous calls join it (and roll back with it)", async () => {
    const sync = roots.open(roots.root());
    const store = asyncStore(sync);
    await expect(
      store.transaction(async (tx) => {
        await tx.kv.put("a", "first", 1);
        sync.transaction(() => sync.kv.put("a", "nested", 2));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(sync.kv.get("a", "nested")).toBeUndefined();
  });
});
