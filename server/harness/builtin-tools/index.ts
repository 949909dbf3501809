/** The harness built-in tools (`task` is added by the harness itself, with the subagents). */
import type { LoadedSkill, LoadedTool } from "../../load/types.ts";
import { editTool } from "./edit.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { loadSkillTool } from "./load-skill.ts";
import { lsTool } from "./ls.ts";
import { readTool } from "./read.ts";
import { shellTool } from "./shell.ts";
import { writeTool } from "./write.ts";

export interface BuiltinToolsOptions {
  skills: LoadedSkill[];
  /** `local.sandbox`: run `shell` under bubblewrap. */
  sandbox?: boolean;
  /** `defineAgent({ tools })`: undefined = all, [] = none. Names that are not built-ins here are ignored. */
  allow?: string[];
}

/** In a stable order: read, write, edit, ls, glob, grep, shell, load_skill (only when there are skills). */
export function builtinTools(options: BuiltinToolsOptions): LoadedTool[] {
  const tools = [readTool(), writeTool(), editTool(), lsTool(), globTool(), grepTool(), shellTool({ sandbox: options.sandbox })];
  if (options.skills.length > 0) tools.push(loadSkillTool(options.skills));
  const allow = options.allow;
  return allow === undefined ? tools : tools.filter((tool) => allow.includes(tool.name));
}

export { sandboxAvailable } from "./sandbox.ts";
export { agentToolScript } from "./agent-tool-script.ts";
export { runAgentTool } from "./run-agent-tool.ts";
