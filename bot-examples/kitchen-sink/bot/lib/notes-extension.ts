import { defineExtension } from "bdk/extensions";
import { defineTool } from "bdk/tools";
import { z } from "zod";

/** A small extension: one tool and a line of instructions, configured per mount. */
export const notes = defineExtension({
  name: "notes",
  description: "Team notes kept in the agent's key-value store.",
  configSchema: z.object({ team: z.string() }),
  instructions: (config) => `Use notes__add to remember facts for the ${config.team} team.`,
  tools: (config) => ({
    add: defineTool({
      description: `Remember a note for the ${config.team} team.`,
      effect: "write",
      inputSchema: z.object({ text: z.string().min(1) }),
      async execute({ text }, ctx) {
        const key = `notes:${config.team}`;
        const existing = ((await ctx.host.kv.get(key)) as string[] | undefined) ?? [];
        await ctx.host.kv.put(key, [...existing, text]);
        return { count: existing.length + 1 };
      },
    }),
  }),
});
