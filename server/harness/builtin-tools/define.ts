import type { z } from "zod";
import type { ToolContext, ToolEffect } from "../../authoring/tools.ts";
import { loadTool } from "../../load/tool.ts";
import type { LoadedTool } from "../../load/types.ts";

/** A harness built-in, wrapped by the same code that wraps authored tools (JSON Schema, validation). */
export function builtinTool<Schema extends z.ZodObject>(
  name: string,
  description: string,
  schema: Schema,
  execute: (input: z.output<Schema>, ctx: ToolContext) => unknown,
  options: { effect?: ToolEffect; timeoutMs?: number; source?: "reminders" | "artifacts" | "subagents" } = {},
): LoadedTool {
  return loadTool(
    name,
    { description, inputSchema: schema, execute, effect: options.effect ?? "read", timeoutMs: options.timeoutMs },
    { source: options.source ?? "builtin" },
  );
}
