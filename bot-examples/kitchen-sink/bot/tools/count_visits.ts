import { defineTool } from "bdk/tools";
import { z } from "zod";

export default defineTool({
  description: "Count how many times this tool has been called, across all sessions (durable).",
  effect: "write",
  inputSchema: z.object({}),
  async execute(_input, ctx) {
    const previous = (await ctx.host.kv.get("visits")) as number | undefined;
    const visits = (previous ?? 0) + 1;
    await ctx.host.kv.put("visits", visits);
    return { visits };
  },
});
