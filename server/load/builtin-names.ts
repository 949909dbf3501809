/**
 * A project's tool named like one of the harness's own replaces it for the
 * model (`toolsForTurn` keeps the project's), which is rarely what the
 * author meant: `validate` says so.
 */
import type { DiagnosticList } from "../discover/diagnostics.ts";
import type { LoadedTool } from "./types.ts";

/** The harness tools `defineAgent({ tools })` chooses among: the built-ins, `load_skill` (skills), `task` (subagents). */
export const ALLOWLISTED_BUILTINS: readonly string[] = ["read", "write", "edit", "ls", "glob", "grep", "shell", "load_skill", "task"];

/** Every tool the harness may add: the allowlisted ones, `tag_artifact`, the reminder tools. */
export const HARNESS_TOOL_NAMES: readonly string[] = [...ALLOWLISTED_BUILTINS, "tag_artifact", "reminders_create", "reminders_list", "reminders_cancel"];

export function reportBuiltinNames(tools: readonly LoadedTool[], diagnostics: DiagnosticList): void {
  for (const tool of tools) {
    if (!HARNESS_TOOL_NAMES.includes(tool.name)) continue;
    diagnostics.warning("builtin_tool_shadowed", `tool "${tool.name}" has the name of a built-in tool; the model gets yours instead of the built-in ${tool.name}`, {
      file: tool.file,
      hint: `Rename the file to keep both (e.g. ${tool.file?.replace(/[^/]+$/, `my_${tool.name}.ts`) ?? `my_${tool.name}`}).`,
    });
  }
}
