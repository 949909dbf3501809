import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { KIT_DIR, readNdjson, type RunningServer, startServer } from "./support/bdk-server.ts";

type Event = { type: string; index: number; data: Record<string, unknown> };
const DIR = path.join(KIT_DIR, "bot-examples", "pr-approver");
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop("SIGKILL")));
});

it("survives kill -9 mid-turn: the turn ends interrupted, indexes continue, follow-ups work", async () => {
  const first = await startServer({ dir: DIR, env: { BDK_SCRIPTED_DELAY_MS: "5000" } });
  servers.push(first);
  const created = (await (
    await fetch(`${first.url}/v1/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "Inspect https://github.com/acme/checkout/pull/42" }),
    })
  ).json()) as Record<string, string>;
  const before = await readNdjson<Event>(
    await fetch(`${first.url}/v1/session/${created.sessionId}/stream`),
    (event) => event.type === "step.started",
  );
  await first.stop("SIGKILL");

  const second = await startServer({ dir: DIR, stateRoot: first.stateRoot, port: first.port });
  servers.push(second);
  const events = await readNdjson<Event>(await fetch(`${second.url}/v1/session/${created.sessionId}/events`));
  expect(events.map((event) => event.index)).toEqual(events.map((_, i) => i));
  expect(events.slice(0, before.length).map((event) => event.type)).toEqual(before.map((event) => event.type));
  expect(events.slice(-2).map((event) => [event.type, event.data.status])).toEqual([
    ["turn.failed", "interrupted"],
    ["session.waiting", undefined],
  ]);

  const followUp = await fetch(`${second.url}/v1/session/${created.sessionId}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message: "are you back?", continuationToken: created.continuationToken }),
  });
  expect(followUp.status).toBe(202);
  const after = await readNdjson<Event>(
    await fetch(`${second.url}/v1/session/${created.sessionId}/stream?startIndex=${events.length}`),
    (event) => event.type === "session.waiting",
  );
  expect(after[0].index).toBe(events.length);
  expect(after.at(-2)?.type).toBe("turn.completed");
}, 240_000);
