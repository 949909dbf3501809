/**
 * Loads a project: discovery (paths → manifest), then every module imported
 * through one jiti importer and checked, then the resolved agent the runtime
 * consumes. Problems never throw: they are diagnostics.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type * as Esbuild from "esbuild";
import type { ArtifactsDefinition } from "../authoring/artifacts.ts";
import type { ChannelDefinition } from "../authoring/channels.ts";
import type { ConnectionDefinition } from "../authoring/connections.ts";
import type { HookDefinition } from "../authoring/hooks.ts";
import type { ReminderDefinition } from "../authoring/reminders.ts";
import type { ResultDefinition } from "../authoring/result.ts";
import type { ScheduleDefinition } from "../authoring/schedules.ts";
import { DiagnosticList, type Diagnostic } from "../discover/diagnostics.ts";
import type { NamedFile, ProjectManifest } from "../discover/manifest.ts";
import { discoverProject } from "../discover/project.ts";
import type { DefinitionKind } from "../authoring/brand.ts";
import { loadAgentConfig, loadSubagent } from "./agent-config.ts";
import { emptyAssembly, type AgentAssembly } from "./assembly.ts";
import { reportBuiltinNames } from "./builtin-names.ts";
import { resolveConnection } from "./connections.ts";
import { absolute, checked, importDefinition, type LoadContext } from "./context.ts";
import { withEsbuild } from "./esbuild-service.ts";
import { checkArtifacts, checkChannel, checkHook, checkReminder, checkResult, checkSchedule } from "./definitions.ts";
import { loadEvals } from "./evals.ts";
import { loadExtension } from "./extensions.ts";
import { reportFailedModules, reportMissingExports } from "./import-diagnostics.ts";
import { manifestModules, scanImports } from "./import-graph.ts";
import { createProjectImporter, transpileAhead } from "./importer.ts";
import { defaultImportScanCache } from "./import-scan-cache.ts";
import { loadInstructions } from "./instructions.ts";
import { ProjectZod } from "./project-zod.ts";
import { loadMarkdownSchedule } from "./schedules.ts";
import { loadSkill } from "./skills.ts";
import { looksLikeTool, loadTool } from "./tool.ts";
import type { ResolvedAgent } from "./types.ts";
import { botVersion } from "./version.ts";

export interface LoadResult {
  /** Undefined only when there is no bot folder at all; otherwise present even with errors (check diagnostics). */
  agent?: ResolvedAgent;
  diagnostics: Diagnostic[];
  manifest?: ProjectManifest;
}

/** Imports a definition, checks it, and reports the check's warnings; undefined when unusable (reported). */
async function loadChecked<T>(
  ctx: LoadContext,
  file: string,
  kind: DefinitionKind,
  helper: string,
  check: (definition: T) => string[],
): Promise<T | undefined> {
  const definition = (await importDefinition(ctx, file, { kinds: [kind], helper })) as T | undefined;
  if (definition === undefined) return undefined;
  const warnings = checked(ctx, file, () => check(definition));
  if (!warnings) return undefined;
  for (const warning of warnings) ctx.diagnostics.warning("invalid_definition", warning, { file });
  return definition;
}

async function loadIntoMap<T>(
  ctx: LoadContext,
  entries: NamedFile[],
  into: Map<string, T>,
  kind: DefinitionKind,
  helper: string,
  check: (definition: T) => string[],
): Promise<void> {
  for (const entry of entries) {
    const definition = await loadChecked(ctx, entry.file, kind, helper, check);
    if (definition !== undefined) into.set(entry.name, definition);
  }
}

async function loadAuthored(ctx: LoadContext, manifest: ProjectManifest, parts: AgentAssembly): Promise<void> {
  for (const entry of manifest.tools) {
    const definition = await importDefinition(ctx, entry.file, { kinds: ["tool"], helper: "defineTool(...)", accept: looksLikeTool });
    if (definition === undefined) continue;
    await ctx.projectZod.locate((definition as { inputSchema?: unknown }).inputSchema, absolute(ctx, entry.file));
    const tool = checked(ctx, entry.file, () => loadTool(entry.name, definition, { file: entry.file, projectZod: ctx.projectZod }));
    if (tool) parts.tools.push(tool);
  }
  for (const entry of manifest.skills) {
    const skill = await loadSkill(ctx, entry);
    if (skill) parts.skills.push(skill);
  }
  for (const entry of manifest.subagents) {
    const subagent = await loadSubagent(ctx, entry);
    if (subagent) parts.subagents.push(subagent);
  }
  for (const [entries, scope] of [[manifest.mcpConnections, "model"], [manifest.hostConnections, "host"]] as const) {
    for (const entry of entries) {
      const definition = await importDefinition(ctx, entry.file, { kinds: ["connection"], helper: "defineConnection(...)" });
      if (definition === undefined) continue;
      const connection = resolveConnection(ctx, entry.name, scope, definition as ConnectionDefinition, entry.file);
      if (!connection) continue;
      if (parts.connections.has(entry.name)) {
        ctx.diagnostics.error("duplicate_name", `connection "${entry.name}" is defined in both mcp-connections/ and host-connections/`, {
          file: entry.file,
        });
      } else parts.connections.set(entry.name, connection);
    }
  }
  await loadIntoMap<ChannelDefinition>(ctx, manifest.channels, parts.channels, "channel", "defineChannel(...)", checkChannel);
  await loadIntoMap<HookDefinition>(ctx, manifest.hooks, parts.hooks, "hook", "defineHook(...)", checkHook);
  await loadIntoMap<ReminderDefinition>(ctx, manifest.reminders, parts.reminders, "reminder", "defineReminder(...)", checkReminder);
  for (const entry of manifest.schedules) {
    const definition = entry.file.endsWith(".md")
      ? loadMarkdownSchedule(ctx, entry.file)
      : await importDefinition(ctx, entry.file, { kinds: ["schedule"], helper: "defineSchedule(...)" });
    if (definition === undefined) continue;
    const warnings = checked(ctx, entry.file, () => checkSchedule(definition as ScheduleDefinition));
    if (warnings) parts.schedules.set(entry.name, definition as ScheduleDefinition);
  }
  if (manifest.artifactsFile) {
    parts.artifacts = await loadChecked<ArtifactsDefinition>(ctx, manifest.artifactsFile, "artifacts", "defineArtifacts(...)", checkArtifacts);
  }
}

export async function loadAgent(dir: string): Promise<LoadResult> {
  const discovery = discoverProject(dir);
  const manifest = discovery.manifest;
  const diagnostics = new DiagnosticList();
  diagnostics.items.push(...discovery.diagnostics);
  if (!manifest) return { diagnostics: diagnostics.items };

  return withEsbuild(async (esbuild) => loadManifest(esbuild, manifest, diagnostics));
}

/** Every module of the project imported and checked: the esbuild service is held meanwhile (esbuild-service.ts). */
async function loadManifest(esbuild: () => typeof Esbuild, manifest: ProjectManifest, diagnostics: DiagnosticList): Promise<LoadResult> {
  const entryFiles = manifestModules(manifest);
  const scan = await scanImports(manifest.rootDir, entryFiles, defaultImportScanCache());
  await transpileAhead(esbuild, new Set([...entryFiles, ...(scan?.imports.keys() ?? []), ...[...(scan?.imports.values() ?? [])].flatMap((imported) => [...imported])]));
  const importer = createProjectImporter(manifest.rootDir, scan);
  const ctx: LoadContext = {
    rootDir: manifest.rootDir,
    importer,
    diagnostics,
    projectZod: new ProjectZod(importer.importFrom),
    missingExportFiles: new Set(),
  };
  reportMissingExports(ctx, scan?.missingExports ?? []);
  if (importer.tsconfigProblem) {
    diagnostics.warning("unreadable_tsconfig", `cannot be read (${importer.tsconfigProblem}); its compilerOptions.paths aliases are not used`, {
      file: "tsconfig.json",
      hint: "Install what it extends (npm install in the project), or fix the file.",
    });
  }
  const config = await loadAgentConfig(ctx, manifest.agentFile);
  const instructions = await loadInstructions(ctx, manifest.instructions);
  const parts = emptyAssembly();
  await loadAuthored(ctx, manifest, parts);
  reportBuiltinNames(parts.tools, diagnostics);
  const extensions = [];
  for (const entry of manifest.extensions) {
    const extension = await loadExtension(ctx, entry, parts);
    if (extension) extensions.push(extension);
  }
  const result = manifest.resultFile
    ? await loadChecked<ResultDefinition>(ctx, manifest.resultFile, "result", "defineResult(...)", checkResult)
    : undefined;
  const evals = await loadEvals(ctx, manifest);
  reportFailedModules(ctx, `${manifest.botDir}/tools`);

  const botDir = path.join(manifest.rootDir, manifest.botDir);
  const sandboxDir = path.join(botDir, "sandbox", "workspace");
  const agent: ResolvedAgent = {
    name: manifest.name,
    rootDir: manifest.rootDir,
    botDir,
    version: botVersion(botDir),
    config,
    instructions: [instructions, ...parts.extraInstructions].filter(Boolean).join("\n\n"),
    instructionsFiles: manifest.instructions?.files ?? [],
    tools: parts.tools,
    skills: parts.skills,
    subagents: parts.subagents,
    channels: parts.channels,
    schedules: parts.schedules,
    reminders: parts.reminders,
    hooks: parts.hooks,
    connections: parts.connections,
    artifacts: parts.artifacts,
    result,
    sandboxDir: existsSync(sandboxDir) ? sandboxDir : undefined,
    extensions,
    evals,
  };
  return { agent, diagnostics: diagnostics.items, manifest };
}
