/**
 * The `scheduled` conformance bot, unchanged, under `bdk serve --dev`: fire
 * `alert-sweep` through the dev route, post to the webhook route, create a
 * `ci_recheck` reminder and dispatch it through the dev route.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAgent, type OpenedAgent } from "../server/host/open-agent.ts";
import { copyProject, removeTempProjects } from "../server/load/testing/temp-project.ts";
import type { AnyBdkEvent } from "../server/protocol/events.ts";
import { openStore, type Store } from "../server/store/index.ts";
import { type RunningServer, startServer } from "./support/bdk-server.ts";
import { CONFORMANCE_DIR } from "./support/conformance.ts";

const SCHEDULED = path.join(CONFORMANCE_DIR, "scheduled");
let server: RunningServer;
let store: Store;
let dir: string;

beforeAll(async () => {
  dir = copyProject(SCHEDULED);
  server = await startServer({ dir, args: ["--dev"] });
  store = openStore(server.stateRoot);
}, 240_000);

afterAll(async () => {
  store?.close();
  await server?.stop();
  removeTempProjects();
});

const api = (route: string, init?: RequestInit) => fetch(`${server.url}${route}`, init);
const postJson = (route: string, body?: unknown) =>
  api(route, { method: "POST", headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
const kv = (key: string) => store.kv.get("ops-digest", key);

async function settled(sessionId: string, turns = 1): Promise<AnyBdkEvent[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const events = store.events.list(sessionId) as AnyBdkEvent[];
    const ended = events.filter((event) => event.type === "turn.completed" || event.type === "turn.failed").length;
    if (ended >= turns && ["session.waiting", "session.completed", "session.failed"].includes(events.at(-1)?.type ?? "")) return events;
    if (Date.now() > deadline) throw new Error(`session ${sessionId} did not settle`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function until<T>(read: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("conformance: scheduled under serve --dev", () => {
  it("lists the schedules with their next fire time", async () => {
    const body = (await (await api("/v1/dev/schedules")).json()) as { schedules: { name: string; kind: string; nextFireAt: string }[] };
    expect(body.schedules.map((schedule) => [schedule.name, schedule.kind])).toEqual([
      ["alert-sweep", "handler"],
      ["daily-summary", "markdown"],
    ]);
    expect(Date.parse(body.schedules[0].nextFireAt)).toBeGreaterThan(Date.now());
  });

  it("fires alert-sweep through the dev route: a webhook conversation as the schedule's principal, delivered", async () => {
    const response = await postJson("/v1/dev/schedules/alert-sweep");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { scheduleId: string; sessionIds: string[] };
    expect(body.scheduleId).toBe("alert-sweep");
    expect(body.sessionIds).toHaveLength(1);
    const session = store.sessions.get(body.sessionIds[0])!;
    expect(session).toMatchObject({ channel: "webhook", principal: { type: "app", id: "schedule/alert-sweep" } });
    expect(kv("incidents:checks")).toBeGreaterThanOrEqual(1);
    await settled(session.id);
    expect(await until(() => kv("delivered:"))).toEqual(expect.any(String));
  });

  it("posts to the webhook route: the body is validated, the session carries the state its delivery event uses", async () => {
    const invalid = await postJson("/v1/channels/webhook/alert", { source: "pagerduty" });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { message: string }).message).toContain("message");

    const accepted = await postJson("/v1/channels/webhook/alert", { source: "pagerduty", message: "Disk 91% full on db-1." });
    expect(accepted.status).toBe(202);
    const session = await until(() => store.sessions.list({ limit: 50 }).sessions.find((row) => row.title === "Alert from pagerduty"));
    expect(session.channelState).toEqual({ source: "pagerduty" });
    await settled(session.id);
    expect(await until(() => kv("delivered:pagerduty"))).toEqual(expect.any(String));
  });

  it("a ci_recheck reminder created on a webhook conversation is listed and dispatched through the dev route", async () => {
    const conversation = store.sessions.list({ limit: 50 }).sessions.find((row) => row.title === "Alert from pagerduty")!;
    // Another process of the same project (a script, `bdk run`) creates it in the shared state store.
    let creator: OpenedAgent | undefined;
    let reminderId: string;
    try {
      creator = await openAgent(dir, { stateRoot: server.stateRoot, env: { BDK_MODEL: "scripted" } });
      const ciRecheck = creator.agent.reminders.get("ci_recheck");
      reminderId = (
        await creator.automation.createReminder({
        purpose: "ci_recheck",
        channelId: "webhook",
        continuationToken: conversation.continuationToken!,
        every: "30m",
        handler: ciRecheck,
        args: { prUrl: "https://github.com/acme/checkout/pull/42" },
        })
      ).id;
    } finally {
      await creator?.close();
    }

    const listed = (await (await api("/v1/dev/reminders")).json()) as { reminders: Record<string, unknown>[] };
    expect(listed.reminders).toEqual([
      expect.objectContaining({ id: reminderId, purpose: "ci_recheck", handler: "ci_recheck", every: "30m", sessionId: conversation.id }),
    ]);

    const fired = await postJson(`/v1/dev/reminders/${reminderId}`);
    expect(fired.status).toBe(200);
    expect(await fired.json()).toEqual({ reminderId, action: "delivered", sessionIds: [conversation.id] });
    const events = await settled(conversation.id, 2);
    const last = events.filter((event) => event.type === "message.received").at(-1)!;
    expect((last.data as { message: string }).message).toContain(
      "Re-check CI for https://github.com/acme/checkout/pull/42. Report only if the status changed.",
    );
    // Recurring and dispatched by hand: still armed.
    expect(store.reminders.get(reminderId)?.status).toBe("armed");
  });

  it("answers 404 for unknown schedules and reminders", async () => {
    expect((await postJson("/v1/dev/schedules/nope")).status).toBe(404);
    expect((await postJson("/v1/dev/reminders/rem_nope")).status).toBe(404);
  });
});
