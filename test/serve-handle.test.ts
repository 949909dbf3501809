/**
 * The programmatic host: `serve()` in this process, with the handle's
 * dispatchSchedule, createReminder and dispatchReminder, and the cron
 * cadence driven by an injected clock.
 */
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { copyProject, removeTempProjects } from "../server/load/testing/temp-project.ts";
import { ManualClock } from "../server/schedules/clock.ts";
import { serve, type ServeHandle, type ServeOptions } from "../web/serve.ts";
import { CONFORMANCE_DIR } from "./support/conformance.ts";

const SCHEDULED = path.join(CONFORMANCE_DIR, "scheduled");
let handle: ServeHandle | undefined;

async function start(options: ServeOptions): Promise<ServeHandle> {
  handle = await serve(copyProject(SCHEDULED), { port: 0, env: { BDK_MODEL: "scripted" }, ...options });
  return handle;
}

afterEach(async () => {
  await handle?.close();
  handle = undefined;
  removeTempProjects();
});

it("dispatches a schedule, then creates and dispatches a named reminder into that conversation", async () => {
  const served = await start({ dev: true });
  const { scheduleId, sessionIds } = await served.dispatchSchedule("alert-sweep");
  expect(scheduleId).toBe("alert-sweep");
  const { opened } = served.agents[0];
  const session = (await opened.store.sessions.get(sessionIds[0]))!;
  await opened.runtime.idle(session.id);

  const reminder = await served.createReminder({
    purpose: "ci_recheck",
    channelId: "webhook",
    continuationToken: session.continuationToken!,
    delay: "2h",
    handler: opened.agent.reminders.get("ci_recheck"),
    args: { prUrl: "https://github.com/acme/checkout/pull/42" },
  });
  expect(reminder).toMatchObject({ handler: "ci_recheck", delay: "2h", sessionId: session.id, status: "armed" });
  // --dev: the timer never fires on its own; the handle fires it.
  expect(await served.dispatchReminder(reminder.id)).toEqual({ reminderId: reminder.id, action: "delivered", sessionIds: [session.id] });
  await opened.runtime.idle(session.id);
  expect((await opened.store.reminders.get(reminder.id))?.status).toBe("done");

  const listed = await fetch(`${served.url}/v1/dev/reminders`);
  expect(((await listed.json()) as { reminders: unknown[] }).reminders).toEqual([]);
}, 240_000);

it("without --dev the cron cadence fires on the clock; schedules: false (--no-schedules) turns it off", async () => {
  const clock = new ManualClock("2026-03-02T08:59:30Z");
  const served = await start({ clock });
  const { opened } = served.agents[0];
  const schedules = async () => (await opened.store.sessions.list({ limit: 50 })).sessions.map((session) => session.principal.id).sort();
  await clock.advanceTo("2026-03-02T09:00:05Z");
  // 09:00 on a Monday: alert-sweep (*/30) and daily-summary (0 9 * * 1-5).
  expect(await schedules()).toEqual(["schedule/alert-sweep", "schedule/daily-summary"]);
  await clock.advanceTo("2026-03-02T09:29:00Z");
  expect(await schedules()).toHaveLength(2);
  await handle!.close();

  const quiet = new ManualClock("2026-03-02T08:59:30Z");
  const off = await start({ clock: quiet, schedules: false });
  await quiet.advanceTo("2026-03-02T10:00:05Z");
  expect((await off.agents[0].opened.store.sessions.list({ limit: 50 })).sessions).toEqual([]);
}, 240_000);

it("under --dev on loopback, a session the list shows opens even when another principal owns it", async () => {
  const served = await start({ dev: true });
  const { sessionIds } = await served.dispatchSchedule("alert-sweep");
  const id = sessionIds[0];
  await served.agents[0].opened.runtime.idle(id);
  expect((await served.agents[0].opened.store.sessions.get(id))?.principal.id).not.toBe("local");

  const listed = (await (await fetch(`${served.url}/v1/sessions`)).json()) as { sessions: { id: string }[] };
  expect(listed.sessions.map((session) => session.id)).toContain(id);
  const read = await fetch(`${served.url}/v1/session/${id}`);
  expect(read.status).toBe(200);
  const events = await (await fetch(`${served.url}/v1/session/${id}/events`)).text();
  expect(events.split("\n")[0]).toContain('"type":"session.started"');
});
