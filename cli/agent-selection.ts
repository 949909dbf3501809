import path from "node:path";
import type { Diagnostic } from "../server/discover/diagnostics.ts";
import type { AgentSelection } from "../server/discover/host.ts";
import { type CommandIO, type FlagSpec, type ParsedArgs, stringFlag, UsageError } from "./command.ts";

export const SLUG_FLAG: FlagSpec = {
  name: "slug",
  type: "string",
  description: "the agent's slug: in a folder of agents (--dir), or on a multi-agent host (--url)",
};

/** `--dir` and `--slug` → the one agent to load; an ambiguous folder is a usage error listing its slugs. */
export async function selectedAgent(args: ParsedArgs, io: CommandIO): Promise<Extract<AgentSelection, { ok: true }>> {
  const { selectAgent } = await import("../server/discover/host.ts");
  const selection = selectAgent(path.resolve(io.cwd, stringFlag(args, "dir") ?? "."), stringFlag(args, "slug"));
  if (!selection.ok) throw new UsageError(selection.message);
  return selection;
}

export interface AgentTarget {
  /** Set for an agent of a folder of agents. */
  slug?: string;
  dir: string;
}

/**
 * What `validate` and `info` look at: the project `dir`, every agent of a
 * folder of agents (with the folder's own diagnostics), or the one `slug` names.
 */
export async function agentTargets(dir: string, slug: string | undefined): Promise<{ agents: AgentTarget[]; diagnostics: Diagnostic[] }> {
  const { discoverHost, selectAgent } = await import("../server/discover/host.ts");
  if (slug !== undefined) {
    const selection = selectAgent(dir, slug);
    if (!selection.ok) throw new UsageError(selection.message);
    return { agents: [{ slug: selection.slug, dir: selection.dir }], diagnostics: [] };
  }
  const layout = discoverHost(dir);
  // An empty folder's diagnostic is the host's ("neither a project nor a folder of projects"); loading it as a project would say it twice.
  const agents = layout.kind === "multi" ? layout.agents : layout.kind === "single" ? [{ dir }] : [];
  return { agents, diagnostics: layout.diagnostics };
}
