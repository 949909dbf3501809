import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
import { openItems } from "../lib/items.js";

export default defineTool({
  description: "List the team's open work items with owner and days since the last update; staleOnly keeps the stale ones.",
  effect: "read",
  inputSchema: z.object({ staleOnly: z.boolean().optional().describe("Only items without an update for 3+ days") }),
  async execute({ staleOnly }, ctx) {
    const items = openItems(ctx.now());
    return { items: staleOnly ? items.filter((item) => item.stale) : items };
  },
});
