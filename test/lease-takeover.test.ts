/**
 * After `kill -9` of the `bdk serve` that held the reminders lease, a server
 * restarted on the same state root fires the next reminder when it is due,
 * not once the dead process's lease expires.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { removeTempProjects } from "../server/load/testing/temp-project.ts";
import type { AnyBdkEvent } from "../server/protocol/events.ts";
import { openStore, type Store } from "../server/store/index.ts";
import { type RunningServer, startServer } from "./support/bdk-server.ts";
import { postAccepted as post, remindersProject, waitFor } from "./support/reminders-server.ts";

let dir: string;
const servers: RunningServer[] = [];
let store: Store | undefined;

beforeAll(() => {
  dir = remindersProject("lease-takeover", "You re-check things when reminded.");
});

afterAll(async () => {
  store?.close();
  await Promise.all(servers.map((server) => server.stop("SIGKILL")));
  removeTempProjects();
});

const waitLong = <T>(read: () => T | undefined) => waitFor(read, 200_000);

const events = (sessionId: string) => store!.events.list(sessionId) as AnyBdkEvent[];
const turnsEnded = (sessionId: string) => events(sessionId).filter((event) => event.type === "turn.completed").length;
const reminderMessage = (sessionId: string, nth: number) =>
  events(sessionId).filter((event) => event.type === "message.received" && (event.data as { message: string }).message.startsWith("[Reminder"))[nth];

function remindersLease(stateRoot: string): { holder: string; expiresAt: string } | undefined {
  const db = new Database(path.join(stateRoot, "bdk.sqlite"), { readonly: true });
  try {
    return db.prepare("SELECT holder, expires_at AS expiresAt FROM leases WHERE name = 'reminders'").get() as { holder: string; expiresAt: string } | undefined;
  } finally {
    db.close();
  }
}

it("fires the next reminder on time after kill -9 of the lease holder and a restart", async () => {
  const first = await startServer({ dir });
  servers.push(first);
  store = openStore(first.stateRoot);

  const created = await post(first, "/v1/session", { message: 'reminders_create {"delay":"1s","prompt":"First check."}' });
  const sessionId = created.sessionId;
  await waitLong(() => reminderMessage(sessionId, 0));
  await waitLong(() => (turnsEnded(sessionId) === 2 ? true : undefined));
  const held = remindersLease(first.stateRoot);
  expect(held).toBeDefined();

  const second = await post(first, `/v1/session/${sessionId}`, {
    message: 'reminders_create {"delay":"8s","prompt":"Second check."}',
    continuationToken: created.continuationToken,
  });
  expect(second.sessionId).toBe(sessionId);
  await waitLong(() => (turnsEnded(sessionId) === 3 ? true : undefined));
  await first.stop("SIGKILL");

  const restarted = await startServer({ dir, stateRoot: first.stateRoot, port: first.port });
  servers.push(restarted);
  const fired = await waitLong(() => reminderMessage(sessionId, 1));
  expect((fired.data as { message: string }).message).toContain("Second check.");
  // Fired while the dead process's lease had not yet expired: the restart took it over.
  expect(Date.parse(fired.at)).toBeLessThan(Date.parse(held!.expiresAt));
  expect(remindersLease(first.stateRoot)?.holder).not.toBe(held!.holder);
}, 300_000);
