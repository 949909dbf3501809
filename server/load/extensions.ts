/**
 * `extensions/<ns>.ts` mounts: every contribution joins the agent renamed
 * `<ns>__<name>`; instructions are appended to the root's.
 */
import path from "node:path";
import { kindOf } from "../authoring/brand.ts";
import { cursorPlugin } from "../authoring/extensions-cursor-plugin.ts";
import type { ExtensionMount } from "../authoring/extensions.ts";
import type { NamedFile } from "../discover/manifest.ts";
import { addUnique, setUnique, type AgentAssembly } from "./assembly.ts";
import { checked, importDefinition, type LoadContext } from "./context.ts";
import { checkChannel, checkHook, checkSchedule } from "./definitions.ts";
import { resolveConnection } from "./connections.ts";
import { PLUGIN_MANIFEST, readCursorPlugin } from "./cursor-plugin.ts";
import { resolveSubagent } from "./agent-config.ts";
import { skillFromDefinition } from "./skills.ts";
import { loadTool } from "./tool.ts";
import type { ResolvedExtension } from "./types.ts";

async function importMount(ctx: LoadContext, entry: NamedFile): Promise<ExtensionMount | undefined> {
  const exported = await importDefinition(ctx, entry.file, {
    kinds: ["extension-mount", "extension"],
    helper: "an extension mount, e.g. cursorCloudAgents({ ... }) or myExtension(config)",
  });
  if (exported === undefined) return undefined;
  // A factory exported as is is mounted without config (its schema decides whether that is valid).
  return kindOf(exported) === "extension" ? (exported as () => ExtensionMount)() : (exported as ExtensionMount);
}

export async function loadExtension(ctx: LoadContext, entry: NamedFile, parts: AgentAssembly): Promise<ResolvedExtension | undefined> {
  // `extensions/<ns>/` holding a Cursor plugin (its manifest) is mounted like cursorPlugin("<that folder>").
  const folderPlugin = entry.file.endsWith(`/${PLUGIN_MANIFEST}`) ? path.dirname(path.dirname(entry.file)) : undefined;
  let mount = folderPlugin ? cursorPlugin(folderPlugin) : await importMount(ctx, entry);
  if (!mount) return undefined;
  if (mount.error) {
    ctx.diagnostics.error("invalid_extension", mount.error, { file: entry.file });
    return undefined;
  }
  if (mount.pluginDir) {
    const plugin = checked(ctx, entry.file, () => readCursorPlugin(path.resolve(ctx.rootDir, mount!.pluginDir!)));
    if (!plugin) return undefined;
    mount = { ...mount, description: mount.description ?? plugin.description, contributions: plugin.contributions };
  }
  try {
    return mountContributions(ctx, entry, mount, parts);
  } catch (error) {
    // Contributions of an unexpected shape (e.g. `tools` returning null).
    ctx.diagnostics.error("invalid_extension", `extension "${mount.extension}" has invalid contributions: ${(error as Error).message}`, {
      file: entry.file,
    });
    return undefined;
  }
}

function mountContributions(ctx: LoadContext, entry: NamedFile, mount: ExtensionMount, parts: AgentAssembly): ResolvedExtension {
  const ns = entry.name;
  const file = entry.file;
  const named = (name: string) => `${ns}__${name}`;
  const { contributions } = mount;
  const resolved: ResolvedExtension = {
    namespace: ns,
    extension: mount.extension,
    description: mount.description,
    file,
    contributes: {
      tools: [],
      skills: [],
      connections: [],
      hooks: [],
      channels: [],
      schedules: [],
      subagents: [],
      artifactKinds: [],
      instructions: Boolean(contributions.instructions?.trim()),
    },
  };
  const { contributes } = resolved;

  for (const [name, definition] of Object.entries(contributions.tools)) {
    const tool = checked(ctx, file, () => loadTool(named(name), definition, { file, source: "extension", projectZod: ctx.projectZod }), `tool ${named(name)}: `);
    if (tool && addUnique(ctx, parts.tools, tool, "tool", file)) contributes.tools.push(tool.name);
  }
  for (const [name, definition] of Object.entries(contributions.skills)) {
    const skill = checked(ctx, file, () => skillFromDefinition(named(name), definition, file));
    if (skill && addUnique(ctx, parts.skills, skill, "skill", file)) contributes.skills.push(skill.name);
  }
  for (const [name, definition] of Object.entries(contributions.subagents)) {
    const subagent = checked(ctx, file, () => resolveSubagent(named(name), definition, file));
    if (subagent && addUnique(ctx, parts.subagents, subagent, "subagent", file)) contributes.subagents.push(subagent.id);
  }
  for (const [name, definition] of Object.entries(contributions.connections)) {
    const connection = resolveConnection(ctx, named(name), "model", definition, file);
    if (connection && setUnique(ctx, parts.connections, connection.name, connection, "connection", file)) {
      contributes.connections.push(connection.name);
    }
  }
  const kept = [
    ["channel", contributions.channels, parts.channels, checkChannel, contributes.channels],
    ["hook", contributions.hooks, parts.hooks, checkHook, contributes.hooks],
    ["schedule", contributions.schedules, parts.schedules, checkSchedule, contributes.schedules],
  ] as const;
  for (const [kind, definitions, into, check, names] of kept) {
    for (const [name, definition] of Object.entries(definitions)) {
      // Each tuple pairs a map with the check for the same definition type.
      const warnings = checked(ctx, file, () => (check as (value: unknown) => string[])(definition), `${kind} ${named(name)}: `);
      if (!warnings) continue;
      for (const warning of warnings) ctx.diagnostics.warning("invalid_definition", warning, { file });
      if (setUnique(ctx, into as Map<string, unknown>, named(name), definition, kind, file)) names.push(named(name));
    }
  }
  if (contributions.artifacts) {
    const kinds = { ...parts.artifacts?.kinds };
    for (const [kind, spec] of Object.entries(contributions.artifacts.kinds ?? {})) {
      kinds[named(kind)] = spec;
      contributes.artifactKinds.push(named(kind));
    }
    parts.artifacts = { ...contributions.artifacts, ...parts.artifacts, kinds };
  }
  if (contributions.instructions?.trim()) parts.extraInstructions.push(contributions.instructions.trim());
  return resolved;
}
