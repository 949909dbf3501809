/**
 * Two processes on one state root that both see the same reminder ticks due
 * (two holders of the reminders lease overlapping, as on Postgres when a
 * lease passes on at its expiry): every tick wakes its conversation once.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, expect, it } from "vitest";
import { openAgent, type OpenedAgent } from "../host/open-agent.ts";
import { removeTempProjects, tempProject } from "../load/testing/temp-project.ts";
import type { AnyBdkEvent } from "../protocol/events.ts";
import { ManualClock } from "../schedules/clock.ts";
import { fireReminder, type ReminderFiring } from "./fire-reminder.ts";

// A handler that looks something up before it follows up, as a CI check over HTTP does: both processes are inside it at once.
const SLOW_CHECK = `
import { defineReminder } from "@cursor/bdk/reminders";
export default defineReminder({
  async run({ args, followup }) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    await followup({ message: "Re-check " + String(args.pr) + "." });
    return { action: "delivered" };
  },
});
`;

const project = tempProject({
  "package.json": '{ "name": "ops", "type": "module" }',
  "bot/instructions.md": "You watch CI.",
  "bot/channels/drive.ts": 'import { defineChannel } from "@cursor/bdk/channels";\nexport default defineChannel({ routes: [] });\n',
  "bot/reminders/slow_check.ts": SLOW_CHECK,
});

const open: OpenedAgent[] = [];
afterEach(async () => {
  for (const opened of open.splice(0)) await opened.close();
});
afterAll(() => removeTempProjects());

async function processOn(stateRoot: string, clock: ManualClock): Promise<OpenedAgent> {
  const opened = await openAgent(project, { stateRoot, env: { BDK_MODEL: "scripted" }, clock });
  open.push(opened);
  return opened;
}

/** What the process's reminder timers do on seeing the tick of `id` due at `dueAt`. */
function fireDue(opened: OpenedAgent, clock: ManualClock, id: string, dueAt: string): Promise<ReminderFiring> {
  const deps = {
    book: opened.automation.reminders,
    store: opened.runtime.store,
    channels: opened.automation.channels,
    reminders: () => opened.runtime.agent.reminders,
    clock,
    logger: opened.logger,
  };
  return fireReminder(deps, id, { by: "timer", dueAt });
}

const reminderMessages = async (opened: OpenedAgent, token: string): Promise<string[]> => {
  const session = (await opened.store.sessions.findByToken("drive", token));
  if (!session) return [];
  return ((await opened.store.events.list(session.id)) as AnyBdkEvent[])
    .filter((event) => event.type === "message.received")
    .map((event) => (event.data as { message: string }).message);
};

it("fires each of 30 due reminders once when two processes fire them at the same time", async () => {
  const stateRoot = mkdtempSync(path.join(tmpdir(), "bdk-reminder-claims-"));
  const clock = new ManualClock("2026-03-02T09:00:00Z");
  const a = await processOn(stateRoot, clock);
  const b = await processOn(stateRoot, clock);
  const created = await Promise.all(Array.from({ length: 30 }, async (_, i) => {
    const token = `pr:acme/checkout#${i}`;
    // A third each: one-shot handler, recurring handler, recurring prompt.
    const timing = i % 3 === 0 ? { delay: "5m" } : { every: "5m" };
    const body = i % 3 === 2 ? { prompt: `Look at ${token}.` } : { handler: "slow_check", args: { pr: token } };
    return { token, reminder: await a.automation.createReminder({ channelId: "drive", continuationToken: token, ...timing, ...body }) };
  }));
  await clock.advance(5 * 60 * 1000);

  const firings = await Promise.all(
    created.flatMap(({ reminder }) => [a, b].map((opened) => fireDue(opened, clock, reminder.id, reminder.nextFireAt!).catch((error: Error) => error.message))),
  );
  for (const { token } of created) {
    const session = (await a.store.sessions.findByToken("drive", token));
    if (session) await a.runtime.idle(session.id);
  }

  for (const [i, { token, reminder }] of created.entries()) {
    expect(await reminderMessages(a, token), token).toHaveLength(1);
    const outcomes = firings.slice(2 * i, 2 * i + 2);
    expect(outcomes.filter((outcome) => typeof outcome === "object" && outcome.action === "delivered"), token).toHaveLength(1);
    const stored = (await a.store.reminders.get(reminder.id))!;
    if (i % 3 === 0) expect(stored.status).toBe("done");
    // Moved on by one tick, not two.
    else expect(stored.nextFireAt).toBe("2026-03-02T09:10:00.000Z");
  }
});
