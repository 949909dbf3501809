/**
 * Compile-time checks of authoring inference (checked by `npx tsc --noEmit -p .`,
 * never run). Each `@ts-expect-error` line must fail to compile.
 */
import { z } from "zod";
import { defineChannel, POST } from "./channels.ts";
import { defineEval, includes } from "./evals.ts";
import { defineExtension } from "./extensions.ts";
import { defineSchedule } from "./schedules.ts";
import { defineTool } from "./tools.ts";

export const typedTool = defineTool({
  description: "Inspect a pull request.",
  inputSchema: z.object({ prUrl: z.string().url(), draft: z.boolean().optional() }),
  effect: (input) => (input.draft ? "read" : "write"),
  dryRunResult: ({ prUrl }) => ({ prUrl, dryRun: true }),
  // @ts-expect-error needsApproval sees the typed input, which has no `title`
  needsApproval: (input) => input.title === "x",
  async execute({ prUrl, draft }) {
    const url: string = prUrl;
    const isDraft: boolean | undefined = draft;
    return { url, isDraft };
  },
});

defineTool({
  description: "Wrong field",
  inputSchema: z.object({ prUrl: z.string() }),
  // @ts-expect-error `prNumber` is not in the input schema
  execute: async ({ prNumber }) => prNumber,
});

defineTool({
  description: "Wrong type",
  inputSchema: z.object({ count: z.number() }),
  execute: async ({ count }) => {
    // @ts-expect-error `count` is a number
    const text: string = count;
    return text;
  },
});

defineTool({
  description: "JSON Schema input is loosely typed",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  execute: async (input) => input.q,
});

defineTool({
  description: "No input schema",
  execute: async () => "ok",
});

defineChannel<{ source: string }>({
  routes: [
    POST("/alert", {
      bodySchema: z.object({ message: z.string() }),
      async handler(_request, { body }) {
        const message: string = body.message;
        // @ts-expect-error the body schema has no `severity`
        const severity = body.severity;
        return new Response(message + String(severity));
      },
    }),
  ],
  events: {
    "message.completed"(event, channel) {
      const text: string = event.data.text;
      const source: string = channel.state.source;
      void text;
      void source;
    },
  },
});

// @ts-expect-error a schedule takes markdown or run, not both
defineSchedule({ cron: "* * * * *", markdown: "x", run: async () => {} });

defineEval({
  async test(t) {
    await t.send("hi");
    t.check(t.reply, includes(/hi/)).soft();
  },
});

const ci = defineExtension({
  name: "ci",
  configSchema: z.object({ repo: z.string() }),
  tools: (config) => ({
    status: defineTool({ description: `CI status of ${config.repo}`, execute: async () => "green" }),
  }),
});
ci({ repo: "acme/checkout" });
// @ts-expect-error the config needs `repo`
ci({});
