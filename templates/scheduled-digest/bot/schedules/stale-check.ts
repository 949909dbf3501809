import { defineSchedule } from "@cursor/bdk/schedules";
import digest from "../channels/digest.js";

/** Every hour: a tool call without a model turn, and a turn only when something is stale. */
export default defineSchedule({
  cron: "0 * * * *",
  async run({ callTool, receive, waitUntil, appAuth }) {
    const { isError, result } = await callTool("open_items", { staleOnly: true });
    const stale = isError ? [] : (result as { items: { id: string }[] }).items;
    if (stale.length === 0) return;
    waitUntil(
      receive(digest, {
        message: `These items are stale: ${stale.map((item) => item.id).join(", ")}. Check them with open_items and draft a short nudge for their owners.`,
        auth: appAuth,
      }),
    );
  },
});
