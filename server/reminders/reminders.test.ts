import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openAgent, type OpenedAgent } from "../host/open-agent.ts";
import { removeTempProjects, tempProject } from "../load/testing/temp-project.ts";
import type { AnyBdkEvent, Principal } from "../protocol/events.ts";
import { ManualClock } from "../schedules/clock.ts";

const CI_RECHECK = `
import { defineReminder } from "@cursor/bdk/reminders";
export default defineReminder({
  async run({ args, followup }) {
    if (args.stop === true) return { action: "stop" };
    await followup({ message: "Re-check CI for " + String(args.prUrl) + "." });
    return { action: "delivered" };
  },
});
`;

const project = tempProject({
  "package.json": '{ "name": "ops", "type": "module" }',
  "bot/agent.ts": 'import { defineAgent } from "@cursor/bdk";\nexport default defineAgent({ builtinTools: { reminders: true } });\n',
  "bot/instructions.md": "You watch CI.",
  "bot/channels/drive.ts": 'import { defineChannel } from "@cursor/bdk/channels";\nexport default defineChannel({ routes: [] });\n',
  "bot/reminders/ci_recheck.ts": CI_RECHECK,
});

const me: Principal = { type: "user", id: "local" };
const open: OpenedAgent[] = [];

async function start(stateRoot: string, clock: ManualClock): Promise<OpenedAgent> {
  const opened = await openAgent(project, { stateRoot, env: { BDK_MODEL: "scripted" }, clock });
  await opened.automation.start({ schedules: false, timers: true });
  open.push(opened);
  return opened;
}

async function stop(opened: OpenedAgent): Promise<void> {
  open.splice(open.indexOf(opened), 1);
  await opened.close();
}

const stateRoot = () => mkdtempSync(path.join(tmpdir(), "bdk-reminders-"));

afterEach(async () => {
  for (const opened of open.splice(0)) await opened.close();
});
afterAll(() => removeTempProjects());

async function received(opened: OpenedAgent, sessionId: string): Promise<string[]> {
  const session = (await opened.store.sessions.get(sessionId))!;
  return (await opened.runtime.reader.events(sessionId, session.principal))
    .filter((event: AnyBdkEvent) => event.type === "message.received")
    .map((event) => (event.data as { message: string }).message);
}

async function settle(opened: OpenedAgent, sessionId: string): Promise<void> {
  await opened.runtime.idle(sessionId);
}

describe("reminders", () => {
  it("a prompt reminder wakes its conversation when due, with the standing condition, and only once", async () => {
    const clock = new ManualClock("2026-03-02T09:00:00Z");
    const opened = await start(stateRoot(), clock);
    const conversation = await opened.automation.channels.converse({
      channelId: "drive",
      continuationToken: "pr:acme/checkout#42",
      message: "Watch PR 42",
      principal: me,
    });
    await settle(opened, conversation.sessionId);

    const reminder = await opened.automation.createReminder({
      purpose: "ci_recheck",
      channelId: "drive",
      continuationToken: "pr:acme/checkout#42",
      delay: "2h",
      prompt: "Re-check CI. Only act if still failing.",
      until: "Cancel once CI is green or the PR is merged.",
    });
    expect(reminder).toMatchObject({ delay: "2h", nextFireAt: "2026-03-02T11:00:00.000Z", sessionId: conversation.sessionId });

    await clock.advance(2 * 60 * 60 * 1000 - 1000);
    expect(await received(opened, conversation.sessionId)).toHaveLength(1);
    await clock.advance(1000);
    await settle(opened, conversation.sessionId);
    const messages = await received(opened, conversation.sessionId);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toContain("Re-check CI. Only act if still failing.");
    expect(messages[1]).toContain("Cancel once CI is green or the PR is merged.");
    expect((await opened.store.reminders.get(reminder.id))?.status).toBe("done");

    await clock.advance(24 * 60 * 60 * 1000);
    expect(await received(opened, conversation.sessionId)).toHaveLength(2);
  });

  it("stays armed across a restart and fires afterwards into the same conversation", async () => {
    const root = stateRoot();
    const clock = new ManualClock("2026-03-02T09:00:00Z");
    const first = await start(root, clock);
    const conversation = await first.automation.channels.converse({ channelId: "drive", continuationToken: "pr:acme/api#7", message: "Watch PR 7", principal: me });
    await settle(first, conversation.sessionId);
    const handler = first.agent.reminders.get("ci_recheck");
    const { id } = await first.automation.createReminder({
      channelId: "drive",
      continuationToken: "pr:acme/api#7",
      every: "30m",
      handler,
      args: { prUrl: "https://github.com/acme/api/pull/7" },
    });
    await stop(first);

    await clock.advance(45 * 60 * 1000);
    const second = await start(root, clock);
    // 09:30 passed while down: the next tick is 10:00, not a replay.
    expect(await second.automation.listReminders()).toEqual([expect.objectContaining({ id, handler: "ci_recheck", nextFireAt: "2026-03-02T09:30:00.000Z" })]);
    await clock.advance(1);
    await settle(second, conversation.sessionId);
    const messages = await received(second, conversation.sessionId);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toContain("Re-check CI for https://github.com/acme/api/pull/7.");
    expect((await second.store.reminders.get(id))?.nextFireAt).toBe("2026-03-02T10:00:00.000Z");
  });

  it("a cancelled reminder never fires; a handler returning stop ends it", async () => {
    const clock = new ManualClock("2026-03-02T09:00:00Z");
    const opened = await start(stateRoot(), clock);
    const cancelled = await opened.runtime.hostServices.reminders.create({ channelId: "drive", continuationToken: "pr:x/y#1", delay: "5m", prompt: "ping" });
    await opened.runtime.hostServices.reminders.cancel(cancelled.id);
    const stopping = await opened.automation.createReminder({ channelId: "drive", continuationToken: "pr:x/y#2", every: "5m", handler: "ci_recheck", args: { stop: true } });
    await clock.advance(10 * 60 * 1000);
    expect((await opened.store.sessions.findByToken("drive", "pr:x/y#1"))).toBeUndefined();
    expect((await opened.store.sessions.findByToken("drive", "pr:x/y#2"))).toBeUndefined();
    expect((await opened.store.reminders.get(cancelled.id))?.status).toBe("cancelled");
    expect((await opened.store.reminders.get(stopping.id))?.status).toBe("done");
    expect(await opened.runtime.hostServices.reminders.list()).toEqual([]);
  });

  it("a first tick with no conversation yet starts one on the channel with that token, and later ticks continue it", async () => {
    const clock = new ManualClock("2026-03-02T09:00:00Z");
    const opened = await start(stateRoot(), clock);
    const { id } = await opened.automation.createReminder({ channelId: "drive", continuationToken: "pr:acme/web#3", every: "1h", prompt: "Look again." }, me);
    const first = await opened.automation.dispatchReminder(id);
    expect(first.action).toBe("delivered");
    const session = (await opened.store.sessions.findByToken("drive", "pr:acme/web#3"))!;
    expect(first.sessionIds).toEqual([session.id]);
    expect(session.principal).toEqual(me);
    await settle(opened, session.id);
    await clock.advance(60 * 60 * 1000);
    await settle(opened, session.id);
    expect(await received(opened, session.id)).toHaveLength(2);
  });

  it("an inline run fires in its process; after a restart it is reported as lost", async () => {
    const root = stateRoot();
    const clock = new ManualClock("2026-03-02T09:00:00Z");
    const first = await start(root, clock);
    let ran = 0;
    const { id } = await first.runtime.hostServices.reminders.create({
      channelId: "drive",
      continuationToken: "pr:a/b#9",
      every: "10m",
      run: async () => {
        ran++;
        return { action: "skip" };
      },
    });
    await clock.advance(10 * 60 * 1000);
    expect(ran).toBe(1);
    await stop(first);
    const second = await start(root, clock);
    const warnings = (await second.store.logs.list({ limit: 50 })).filter((row) => row.msg.includes(`Reminder ${id} used an inline run handler`));
    expect(warnings).toHaveLength(1);
    await clock.advance(60 * 60 * 1000);
    expect(ran).toBe(1);
  });

  it("reminders_create / list / cancel act on the conversation the model is in", async () => {
    const clock = new ManualClock("2026-03-02T09:00:00Z");
    const opened = await start(stateRoot(), clock);
    const turn = await opened.runtime.startSession({
      message: 'reminders_create {"delay":"1h","prompt":"Check the deploy.","until":"the deploy is healthy","purpose":"deploy_watch"}',
      principal: me,
    });
    await settle(opened, turn.sessionId);
    const [created] = await opened.runtime.hostServices.reminders.list({ sessionId: turn.sessionId });
    expect(created).toMatchObject({ purpose: "deploy_watch", sessionId: turn.sessionId, channelId: "http", until: "the deploy is healthy" });

    // A follow-up rotates the HTTP token; the reminder is bound to the session, so it still lands there.
    await opened.runtime.followUp(turn.sessionId, { message: "reminders_list", principal: me, rotateToken: true });
    await settle(opened, turn.sessionId);
    await clock.advance(60 * 60 * 1000);
    await settle(opened, turn.sessionId);
    const messages = await received(opened, turn.sessionId);
    expect(messages.at(-1)).toContain("Check the deploy.");
    expect(messages.at(-1)).toContain("Standing condition: the deploy is healthy");

    const again = await opened.automation.createReminder({ sessionId: turn.sessionId, every: "1d", prompt: "Daily look." });
    await opened.runtime.followUp(turn.sessionId, { message: `reminders_cancel {"id":"${again.id}"}`, principal: me });
    await settle(opened, turn.sessionId);
    expect((await opened.store.reminders.get(again.id))?.status).toBe("cancelled");
  });

  it("refuses malformed reminders with a message naming the problem", async () => {
    const opened = await start(stateRoot(), new ManualClock("2026-03-02T09:00:00Z"));
    const create = opened.runtime.hostServices.reminders.create;
    await expect(create({ channelId: "drive", prompt: "x" })).rejects.toThrow(/one of delay, at, every or cron/);
    await expect(create({ channelId: "drive", delay: "1h" })).rejects.toThrow(/exactly one of prompt, handler or run/);
    await expect(create({ delay: "1h", prompt: "x" })).rejects.toThrow(/channelId/);
    await expect(create({ channelId: "drive", delay: "1h", handler: { run() {} } })).rejects.toThrow(/bot\/reminders/);
    await expect(create({ channelId: "drive", delay: "1h", handler: "ci_recheck", args: { when: new Date() } as never })).rejects.toThrow(/JSON/);
  });
});
