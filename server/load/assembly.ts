/** The parts of an agent being loaded, filled by authored files first and extensions after. */
import type { LoadContext } from "./context.ts";
import type { ResolvedAgent } from "./types.ts";

export type AgentAssembly = Pick<
  ResolvedAgent,
  "tools" | "skills" | "subagents" | "channels" | "schedules" | "reminders" | "hooks" | "connections" | "artifacts"
> & {
  /** Appended to the root instructions (extension instructions). */
  extraInstructions: string[];
};

export function emptyAssembly(): AgentAssembly {
  return {
    tools: [],
    skills: [],
    subagents: [],
    channels: new Map(),
    schedules: new Map(),
    reminders: new Map(),
    hooks: new Map(),
    connections: new Map(),
    extraInstructions: [],
  };
}

/** Adds to a named list unless the name is taken (an extension contribution colliding with an authored file). */
export function addUnique<T extends { name?: string; id?: string }>(
  ctx: LoadContext,
  list: T[],
  item: T,
  kind: string,
  file: string,
): boolean {
  const name = item.name ?? item.id;
  const existing = list.find((candidate) => (candidate.name ?? candidate.id) === name);
  if (existing) {
    const where = (existing as { file?: string }).file;
    ctx.diagnostics.error("duplicate_name", `${kind} "${name}" is defined twice${where ? `: ${where} and ${file}` : ""}`, { file });
    return false;
  }
  list.push(item);
  return true;
}

export function setUnique<T>(ctx: LoadContext, map: Map<string, T>, name: string, value: T, kind: string, file: string): boolean {
  if (map.has(name)) {
    ctx.diagnostics.error("duplicate_name", `${kind} "${name}" is defined twice`, { file });
    return false;
  }
  map.set(name, value);
  return true;
}
