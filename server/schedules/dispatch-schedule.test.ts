import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAgent, type OpenedAgent } from "../host/open-agent.ts";
import { copyProject, KIT_ROOT, removeTempProjects } from "../load/testing/temp-project.ts";
import type { AnyBdkEvent } from "../protocol/events.ts";

const SCHEDULED = path.join(KIT_ROOT, "test", "fixtures", "conformance", "scheduled");
let opened: OpenedAgent;

beforeAll(async () => {
  opened = await openAgent(copyProject(SCHEDULED), { env: { BDK_MODEL: "scripted" }, dev: true });
});
afterAll(async () => {
  await opened.close();
  removeTempProjects();
});

const types = async (sessionId: string) =>
  (await opened.runtime.reader.events(sessionId, (await opened.store.sessions.get(sessionId))!.principal)).map((event: AnyBdkEvent) => event.type);

describe("dispatchSchedule", () => {
  it("a handler schedule calls tools and hands work into a channel as its own principal", async () => {
    const { scheduleId, sessionIds } = await opened.automation.dispatchSchedule("alert-sweep");
    expect(scheduleId).toBe("alert-sweep");
    expect(sessionIds).toHaveLength(1);
    const session = (await opened.store.sessions.get(sessionIds[0]))!;
    expect(session).toMatchObject({ channel: "webhook", mode: "chat", principal: { type: "app", id: "schedule/alert-sweep" } });
    expect((await opened.store.kv.get(opened.agent.name, "incidents:checks"))).toBe(1);

    await opened.runtime.idle(session.id);
    await opened.automation.channels.delivery.settled();
    // The channel's message.completed delivery event ran for the session `receive` started (default state: source "").
    const answer = (await opened.runtime
      .reader.events(session.id, session.principal))
      .filter((event) => event.type === "message.completed" && event.data.finishReason !== "tool-calls")
      .at(-1);
    expect((await opened.store.kv.get(opened.agent.name, "delivered:"))).toBe((answer?.data as { text: string }).text);
  });

  it("a markdown schedule starts a task session with its body as the prompt", async () => {
    const { sessionIds } = await opened.automation.dispatchSchedule("daily-summary");
    const session = (await opened.store.sessions.get(sessionIds[0]))!;
    expect(session).toMatchObject({ mode: "task", channel: "schedule", principal: { type: "app", id: "schedule/daily-summary" } });
    await opened.runtime.idle(session.id);
    expect((await types(session.id)).at(-1)).toBe("session.completed");
    const received = (await opened.runtime.reader.events(session.id, session.principal)).find((event) => event.type === "message.received");
    expect((received?.data as { message: string }).message).toBe("Pull open incidents and post a summary to the metrics endpoint.");
  });

  it("lists schedules with their next UTC firing, and refuses unknown names", async () => {
    expect(await opened.automation.listSchedules()).toEqual([
      expect.objectContaining({ name: "alert-sweep", cron: "*/30 * * * *", kind: "handler", nextFireAt: expect.stringMatching(/:(00|30):00\.000Z$/) }),
      expect.objectContaining({ name: "daily-summary", cron: "0 9 * * 1-5", kind: "markdown", nextFireAt: expect.stringMatching(/T09:00:00\.000Z$/) }),
    ]);
    await expect(opened.automation.dispatchSchedule("nope")).rejects.toThrow(/alert-sweep, daily-summary/);
  });
});
