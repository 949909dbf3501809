import type { AsyncStore, AsyncTransaction } from "../async-store.ts";

/**
 * Test support: a transaction of `store` that runs `work`, then stays open
 * across awaits until `release()`, and then rolls back (`done` rejects
 * with "rolled back").
 */
export function heldOpen(store: AsyncStore, work: (tx: AsyncTransaction) => Promise<unknown>) {
  let opened!: () => void;
  let release!: () => void;
  const isOpen = new Promise<void>((resolve) => (opened = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const done = store.transaction(async (tx) => {
    await work(tx);
    opened();
    await released;
    throw new Error("rolled back");
  });
  return { isOpen, release, done };
}
