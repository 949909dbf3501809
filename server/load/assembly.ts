/** The parts of an agent being loaded, filled by authored files first and extensions after. */
import type { ArtifactsDefinition } from "../authoring/artifacts.ts";
import type { ChannelDefinition } from "../authoring/channels.ts";
import type { HookDefinition } from "../authoring/hooks.ts";
import type { ReminderDefinition } from "../authoring/reminders.ts";
import type { ScheduleDefinition } from "../authoring/schedules.ts";
import type { LoadContext } from "./context.ts";
import type { LoadedSkill, LoadedTool, ResolvedConnection, ResolvedSubagent } from "./types.ts";

export interface AgentAssembly {
  tools: LoadedTool[];
  skills: LoadedSkill[];
  subagents: ResolvedSubagent[];
  channels: Map<string, ChannelDefinition>;
  schedules: Map<string, ScheduleDefinition>;
  reminders: Map<string, ReminderDefinition>;
  hooks: Map<string, HookDefinition>;
  connections: Map<string, ResolvedConnection>;
  /** Appended to the root instructions (extension instructions). */
  extraInstructions: string[];
  artifacts?: ArtifactsDefinition;
}

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
