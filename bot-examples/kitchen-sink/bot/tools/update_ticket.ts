import { defineTool } from "bdk/tools";
import { z } from "zod";

export default defineTool({
  description: "Comment on or close a support ticket.",
  inputSchema: z.object({
    ticketId: z.string(),
    action: z.enum(["comment", "close"]),
    text: z.string(),
  }),
  // Commenting only adds information; closing changes state, so dry runs skip it and it needs a person.
  effect: ({ action }) => (action === "close" ? "write" : "read"),
  needsApproval: ({ action }) => action === "close",
  dryRunResult: ({ ticketId, action }) => ({ ticketId, action, dryRun: true }),
  async execute({ ticketId, action, text }, ctx) {
    await ctx.host.kv.put(`ticket:${ticketId}:last`, { action, text });
    return { ticketId, action, ok: true };
  },
});
