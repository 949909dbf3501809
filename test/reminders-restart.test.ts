/**
 * Reminders on a real `bdk serve`: created by the model's reminders_create
 * in an HTTP conversation, the server killed (-9) and restarted on the same
 * state root, the reminder then firing into the same conversation with its
 * standing condition; a cancelled one never fires.
 */
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
  dir = remindersProject("ci-watch", "You watch CI and re-check it when reminded.");
});

afterAll(async () => {
  store?.close();
  await Promise.all(servers.map((server) => server.stop("SIGKILL")));
  removeTempProjects();
});


const events = (sessionId: string) => store!.events.list(sessionId) as AnyBdkEvent[];
const turnsEnded = (sessionId: string) => events(sessionId).filter((event) => event.type === "turn.completed").length;
const toolResult = (sessionId: string, name: string) =>
  events(sessionId)
    .filter((event) => event.type === "action.result" && (event.data as { name: string }).name === name)
    .map((event) => (event.data as { output: Record<string, unknown> }).output)
    .at(-1);

it("fires after a kill -9 and restart into the same conversation; the cancelled one does not", async () => {
  const first = await startServer({ dir });
  servers.push(first);
  store = openStore(first.stateRoot);

  const created = await post(first, "/v1/session", {
    message: 'reminders_create {"delay":"6s","prompt":"Re-check CI for acme/checkout#42.","until":"CI is green or the PR is merged.","purpose":"ci_recheck"}',
  });
  const sessionId = created.sessionId;
  await waitFor(() => (turnsEnded(sessionId) === 1 ? true : undefined));
  const kept = toolResult(sessionId, "reminders_create") as { id: string };
  expect(kept.id).toMatch(/^rem_/);

  const second = await post(first, `/v1/session/${sessionId}`, {
    message: 'reminders_create {"delay":"6s","prompt":"This one gets cancelled."}',
    continuationToken: created.continuationToken,
  });
  await waitFor(() => (turnsEnded(sessionId) === 2 ? true : undefined));
  const dropped = toolResult(sessionId, "reminders_create") as { id: string };
  await post(first, `/v1/session/${sessionId}`, {
    message: `reminders_cancel {"id":"${dropped.id}"}`,
    continuationToken: second.continuationToken,
  });
  await waitFor(() => (turnsEnded(sessionId) === 3 ? true : undefined));
  expect(store.reminders.get(dropped.id)?.status).toBe("cancelled");

  await first.stop("SIGKILL");
  const restarted = await startServer({ dir, stateRoot: first.stateRoot, port: first.port });
  servers.push(restarted);
  expect(restarted.output()).not.toContain("inline run handler");

  const woke = await waitFor(() =>
    events(sessionId)
      .filter((event) => event.type === "message.received")
      .find((event) => (event.data as { message: string }).message.includes(`[Reminder ${kept.id} (ci_recheck)]`)),
  );
  const message = (woke.data as { message: string }).message;
  expect(message).toContain("Re-check CI for acme/checkout#42.");
  expect(message).toContain("Standing condition: CI is green or the PR is merged.");
  await waitFor(() => (turnsEnded(sessionId) === 4 ? true : undefined));
  expect(store.reminders.get(kept.id)?.status).toBe("done");
  const reminderMessages = events(sessionId).filter(
    (event) => event.type === "message.received" && (event.data as { message: string }).message.startsWith("[Reminder"),
  );
  expect(reminderMessages).toEqual([woke]);
}, 240_000);
