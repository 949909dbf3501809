/**
 * `/v1/dev/*`: list and fire schedules and reminders by hand. They exist
 * only under `--dev` (404 otherwise), where nothing fires on its own.
 */
import type { OpenedAgent } from "../host/open-agent.ts";
import { BdkError, messageOf } from "../protocol/errors.ts";
import type { AgentRouteHandler } from "./agent-routes.ts";
import { json } from "./respond.ts";

function requireDev(opened: OpenedAgent): OpenedAgent["automation"] {
  if (!opened.automation.dev) throw new BdkError("not_found", "Dev routes exist only under --dev (bdk dev, or bdk serve --dev).");
  return opened.automation;
}

/** A handler's own failure is reported with its message (the developer asked for this firing). */
async function firing<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (BdkError.isInstance(error)) throw error;
    throw new BdkError("internal", `${what} failed: ${messageOf(error)}`);
  }
}

export const devRoutes = {
  async devListSchedules({ opened }) {
    return json({ ok: true, schedules: requireDev(opened).listSchedules() });
  },

  async devFireSchedule({ params, opened }) {
    const automation = requireDev(opened);
    return json(await firing(`Schedule ${params.name}`, () => automation.dispatchSchedule(params.name)));
  },

  async devListReminders({ opened }) {
    return json({ ok: true, reminders: requireDev(opened).listReminders() });
  },

  async devFireReminder({ params, opened }) {
    const automation = requireDev(opened);
    return json(await firing(`Reminder ${params.id}`, () => automation.dispatchReminder(params.id)));
  },
} satisfies Record<string, AgentRouteHandler>;
