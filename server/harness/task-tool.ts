import { z } from "zod";
import type { ToolContext } from "../authoring/tools.ts";
import type { LoadedTool, ResolvedSubagent } from "../load/types.ts";
import { builtinTool } from "./builtin-tools/define.ts";
import type { EventDraft } from "../protocol/events.ts";

export interface TaskToolOptions {
  subagents: ResolvedSubagent[];
  /** Runs the subagent's own loop and returns its final text; throws when it fails or is cancelled. */
  runSubagent(subagent: ResolvedSubagent, prompt: string, ctx: ToolContext): Promise<string>;
  emit(draft: EventDraft): void;
}

const input = z.object({
  subagent: z.string().describe("The id of the subagent to delegate to."),
  prompt: z.string().min(1).describe("What the subagent should do, with all the context it needs."),
});

/** The built-in `task` tool: delegate a prompt to a subagent and return its answer. */
export function createTaskTool(options: TaskToolOptions): LoadedTool {
  const catalogue = options.subagents.map((subagent) => `- ${subagent.id}: ${subagent.description}`).join("\n");
  return builtinTool(
    "task",
    `Delegate a self-contained task to a subagent and get its answer back.\nSubagents:\n${catalogue}`,
    input,
    async ({ subagent: id, prompt }, ctx) => {
      const subagent = options.subagents.find((candidate) => candidate.id === id);
      if (!subagent) {
        throw new Error(`No subagent "${id}". Available: ${options.subagents.map((s) => s.id).join(", ") || "none"}.`);
      }
      const toolCallId = ctx.toolCallId ?? "direct";
      options.emit({ type: "subagent.called", data: { subagent: id, toolCallId, prompt } });
      try {
        const result = await options.runSubagent(subagent, prompt, ctx);
        options.emit({ type: "subagent.completed", data: { subagent: id, toolCallId, result, isError: false } });
        return result;
      } catch (error) {
        options.emit({ type: "subagent.completed", data: { subagent: id, toolCallId, isError: true } });
        throw error;
      }
    },
    // A subagent's turn stops with its parent's and each of its tool calls has its own limit: no limit of its own.
    { timeoutMs: Number.POSITIVE_INFINITY, source: "subagents" },
  );
}
