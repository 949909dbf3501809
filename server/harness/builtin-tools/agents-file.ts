/**
 * The catalogue of agent-executed tools in the workspace's `AGENTS.md`. It
 * lives between markers so a seed `AGENTS.md` keeps its own text and a second
 * run replaces the section instead of appending another one.
 */
import type { LoadedTool } from "../../load/types.ts";
import { agentToolScriptPath } from "./agent-tool-script.ts";

const START = "<!-- bdk:agent-tools:start -->";
const END = "<!-- bdk:agent-tools:end -->";

function toolEntry(tool: LoadedTool): string {
  return [
    `### ${tool.name}`,
    "",
    tool.description.trim(),
    "",
    `Run: \`node ${agentToolScriptPath(tool.name)} '<json input>'\``,
    "",
    `Input (JSON Schema): \`${JSON.stringify(tool.inputJsonSchema)}\``,
  ].join("\n");
}

export function agentToolsSection(agentName: string, tools: LoadedTool[]): string {
  const intro = [
    START,
    `## Tools of ${agentName} that you run yourself`,
    "",
    "Run these scripts from the workspace root with the shell. The input is one JSON argument",
    "(or JSON on stdin); the script prints `{\"ok\":true,\"result\":...}` or `{\"ok\":false,\"error\":\"...\"}`.",
  ].join("\n");
  return [intro, ...tools.map(toolEntry), END].join("\n\n") + "\n";
}

/**
 * `AGENTS.md` with the section added, replaced or (when there are no agent
 * tools) removed. `undefined` when there is no file and nothing to write.
 */
export function withAgentToolsSection(current: string | undefined, agentName: string, tools: LoadedTool[]): string | undefined {
  const section = tools.length > 0 ? agentToolsSection(agentName, tools) : "";
  if (current === undefined) return section || undefined;
  const start = current.indexOf(START);
  const end = current.indexOf(END, start);
  if (start === -1 || end === -1) {
    if (!section) return current;
    return current.trim() ? `${current.trimEnd()}\n\n${section}` : section;
  }
  const before = current.slice(0, start);
  const after = current.slice(end + END.length).replace(/^\n/, "");
  if (section) return before + section + after;
  const rest = (before.trimEnd() + (after.trim() ? `\n\n${after.trimStart()}` : "")).trimEnd();
  return rest ? `${rest}\n` : "";
}
