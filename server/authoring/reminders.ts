import { brand } from "./brand.ts";
import type { JsonObject } from "./types.ts";

export interface ReminderRunContext {
  /** The serialisable `args` given when the reminder was created. */
  args: JsonObject;
  /** Start a model turn in the reminder's conversation. */
  followup(input: { message: string }): Promise<void>;
}

export interface ReminderDefinition {
  description?: string;
  run(ctx: ReminderRunContext): { action: "delivered" | "skip" | "stop" } | Promise<{ action: "delivered" | "skip" | "stop" }>;
}

/**
 * `bot/reminders/<name>.ts`: a named reminder handler that stays armed across restarts.
 *
 * @example
 * export default defineReminder({ async run({ args, followup }) { await followup({ message: `Re-check ${args.prUrl}` }); return { action: "delivered" }; } });
 */
export function defineReminder<T extends ReminderDefinition>(definition: T): T {
  return brand("reminder", definition);
}
