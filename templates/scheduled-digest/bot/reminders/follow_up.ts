import { defineReminder } from "@cursor/bdk/reminders";

/**
 * A named reminder handler: it stays armed across restarts. Arm it from a
 * tool, channel or schedule with host.reminders.create({ handler: followUp, args: { itemId }, every: "1d", ... }).
 */
export default defineReminder({
  description: "Re-checks one work item each tick until it is no longer stale.",
  async run({ args, followup }) {
    if (typeof args.itemId !== "string") return { action: "stop" };
    await followup({ message: `Check ${args.itemId} with open_items. Report only if it is still stale.` });
    return { action: "delivered" };
  },
});
