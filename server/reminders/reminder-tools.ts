/**
 * `builtinTools: { reminders: true }`: the model's `reminders_create`,
 * `reminders_list` and `reminders_cancel`, each bound to the conversation
 * the tool runs in.
 */
import { z } from "zod";
import type { ToolContext } from "../authoring/tools.ts";
import { builtinTool } from "../harness/builtin-tools/define.ts";
import type { LoadedTool } from "../load/types.ts";
import { BdkError } from "../protocol/errors.ts";

const createInput = z.object({
  delay: z.string().optional().describe('Fire once after this long: "30m", "2h", "1d".'),
  at: z.string().optional().describe('Fire once at this ISO time, e.g. "2026-05-01T09:00:00Z".'),
  every: z.string().optional().describe('Fire repeatedly at this interval: "30m", "1d".'),
  cron: z.string().optional().describe('Fire on this 5-field UTC cron, e.g. "0 9 * * 1-5".'),
  prompt: z.string().min(1).describe("What to do when it fires. Keep it generic: re-read live state then."),
  until: z.string().optional().describe("The standing condition under which the reminder should be cancelled."),
  purpose: z.string().optional().describe("A short label, e.g. ci_recheck."),
});
const listInput = z.object({});
const cancelInput = z.object({ id: z.string().min(1).describe("The reminder id, from reminders_create or reminders_list.") });

function conversationOf(ctx: ToolContext): string {
  if (ctx.session.id === "direct") throw new BdkError("invalid_request", "Reminder tools work inside a session only.");
  return ctx.session.id;
}

function tool<S extends z.ZodObject>(
  name: string,
  description: string,
  input: S,
  effect: "read" | "write",
  execute: (value: z.output<S>, ctx: ToolContext) => Promise<unknown>,
): LoadedTool {
  return builtinTool(name, description, input, execute, { effect, source: "reminders" });
}

export function createReminderTools(): LoadedTool[] {
  return [
    tool(
      "reminders_create",
      "Schedule a reminder that wakes this conversation later with a prompt. Give exactly one of delay, at, every or cron (UTC).",
      createInput,
      "write",
      async (input, ctx) => {
        const sessionId = conversationOf(ctx);
        if (ctx.session.dryRun) return { created: false, dryRun: true };
        const { id } = await ctx.host.reminders.create({ ...input, sessionId });
        const created = (await ctx.host.reminders.list({ sessionId })).find((reminder) => reminder.id === id);
        return { id, nextFireAt: created?.nextFireAt };
      },
    ),
    tool("reminders_list", "List the armed reminders of this conversation.", listInput, "read", async (_input, ctx) => ({
      reminders: await ctx.host.reminders.list({ sessionId: conversationOf(ctx) }),
    })),
    tool("reminders_cancel", "Cancel a reminder of this conversation.", cancelInput, "write", async ({ id }, ctx) => {
      const sessionId = conversationOf(ctx);
      const mine = await ctx.host.reminders.list({ sessionId });
      if (!mine.some((reminder) => reminder.id === id)) {
        throw new BdkError("not_found", `No armed reminder ${id} in this conversation.`);
      }
      if (ctx.session.dryRun) return { cancelled: false, dryRun: true, id };
      await ctx.host.reminders.cancel(id);
      return { cancelled: true, id };
    }),
  ];
}
