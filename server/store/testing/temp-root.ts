import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Principal } from "../../protocol/events.ts";
import { openStore, type Store } from "../store.ts";

/** Test support: temporary state roots and stores, removed by `cleanup()`. */
export function tempRoots() {
  const roots: string[] = [];
  const stores: Store[] = [];
  return {
    root(): string {
      const dir = mkdtempSync(path.join(tmpdir(), "bdk-store-"));
      roots.push(dir);
      return dir;
    },
    open(stateRoot: string, clock?: () => Date): Store {
      const store = openStore(stateRoot, { clock });
      stores.push(store);
      return store;
    },
    cleanup(): void {
      for (const store of stores.splice(0)) store.close();
      for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A clock that only moves when told to. */
export function manualClock(start = "2025-01-01T00:00:00.000Z") {
  let now = Date.parse(start);
  return {
    clock: () => new Date(now),
    advance(ms: number): void {
      now += ms;
    },
  };
}

export const alice: Principal = { type: "user", id: "alice" };
export const bob: Principal = { type: "user", id: "bob" };
