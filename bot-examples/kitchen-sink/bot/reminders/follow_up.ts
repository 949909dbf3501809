import { defineReminder } from "bdk/reminders";

export default defineReminder({
  description: "Wakes the conversation to re-check an order until it ships.",
  async run({ args, followup }) {
    if (args.orderId === undefined) return { action: "stop" };
    await followup({ message: `Check order ${String(args.orderId)} again. Report only if its status changed.` });
    return { action: "delivered" };
  },
});
