/**
 * A reminder tick is marked done only with its message: when the message
 * cannot be stored (SQLite refuses the write), the reminder stays due and
 * the next pass of the timers delivers it.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { refuseInserts } from "../../test/support/store-faults.ts";
import { openAgent } from "../host/open-agent.ts";
import { removeTempProjects, tempProject } from "../load/testing/temp-project.ts";
import type { AnyBdkEvent } from "../protocol/events.ts";
import { ManualClock } from "../schedules/clock.ts";

afterAll(() => removeTempProjects());

it("keeps a one-shot reminder armed when its message could not be stored, and delivers it on the next pass", async () => {
  const project = tempProject({
    "package.json": '{ "name": "ops", "type": "module" }',
    "bot/instructions.md": "You watch CI.",
    "bot/channels/drive.ts": 'import { defineChannel } from "@cursor/bdk/channels";\nexport default defineChannel({ routes: [] });\n',
  });
  const stateRoot = mkdtempSync(path.join(tmpdir(), "bdk-reminders-"));
  const clock = new ManualClock("2026-03-02T09:00:00Z");
  const opened = await openAgent(project, { stateRoot, env: { BDK_MODEL: "scripted" }, clock });
  try {
    await opened.automation.start({ schedules: false, timers: true });
    const reminder = await opened.automation.createReminder({ channelId: "drive", continuationToken: "pr:acme/checkout#9", delay: "5m", prompt: "Re-check CI." });

    const lift = refuseInserts(stateRoot, "turns");
    try {
      await clock.advance(5 * 60 * 1000);
    } finally {
      lift();
    }
    expect((await opened.store.sessions.findByToken("drive", "pr:acme/checkout#9"))).toBeUndefined();
    expect((await opened.store.reminders.get(reminder.id))?.status).toBe("armed");

    // The timers re-read the store once a minute: the tick is still due, and now its message is stored.
    await clock.advance(60 * 1000);
    const session = (await opened.store.sessions.findByToken("drive", "pr:acme/checkout#9"))!;
    await opened.runtime.idle(session.id);
    const received = ((await opened.store.events.list(session.id)) as AnyBdkEvent[]).filter((event) => event.type === "message.received");
    expect(received.map((event) => (event.data as { message: string }).message)).toEqual([expect.stringContaining("Re-check CI.")]);
    expect((await opened.store.reminders.get(reminder.id))?.status).toBe("done");
  } finally {
    await opened.close();
  }
});
