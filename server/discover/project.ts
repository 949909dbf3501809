/**
 * Walks a project's `bot/` (or legacy `agent/`) and `evals/` folders and maps
 * each path to a capability and a name (spec: project-layout.md). Nothing is
 * imported here; `load/` does that with the manifest this returns.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { DiagnosticList, type Diagnostic } from "./diagnostics.ts";
import { discoverEvals } from "./evals.ts";
import type { NamedFile, ProjectManifest, SkillEntry, SubagentEntry } from "./manifest.ts";
import { folderProblem, isDeclarationFile, listDefinitionDir, listDefinitionFiles, listDir, listFilesRecursive, moduleStem, NAME_PATTERN } from "./paths.ts";

/** Folders under `bot/` that hold capabilities (and may not appear inside a subagent). */
const CAPABILITY_DIRS = [
  "tools",
  "skills",
  "subagents",
  "mcp-connections",
  "host-connections",
  "extensions",
  "channels",
  "hooks",
  "schedules",
  "reminders",
  "sandbox",
] as const;

export interface DiscoveryResult {
  manifest?: ProjectManifest;
  diagnostics: Diagnostic[];
}

interface Walk {
  rootDir: string;
  botDir: string;
  diagnostics: DiagnosticList;
}

function isDir(absolute: string): boolean {
  try {
    return statSync(absolute).isDirectory();
  } catch {
    return false;
  }
}

/** `bot/` wins over `agent/`; undefined when neither exists. */
export function findBotDir(rootDir: string): { botDir?: string; ignored?: string } {
  const hasBot = isDir(path.join(rootDir, "bot"));
  const hasAgent = isDir(path.join(rootDir, "agent"));
  if (hasBot) return { botDir: "bot", ignored: hasAgent ? "agent" : undefined };
  return { botDir: hasAgent ? "agent" : undefined };
}

export function projectName(rootDir: string, diagnostics?: DiagnosticList): string {
  const packageFile = path.join(rootDir, "package.json");
  if (existsSync(packageFile)) {
    try {
      const name = (JSON.parse(readFileSync(packageFile, "utf8")) as { name?: unknown }).name;
      if (typeof name === "string" && name.trim()) return name;
    } catch (error) {
      diagnostics?.warning("invalid_definition", `package.json is not valid JSON (${(error as Error).message}); using the directory name`, {
        file: "package.json",
      });
    }
  }
  return path.basename(rootDir);
}

export function discoverProject(projectDir: string): DiscoveryResult {
  const rootDir = path.resolve(projectDir);
  const diagnostics = new DiagnosticList();
  const { botDir, ignored } = findBotDir(rootDir);
  if (!botDir) {
    diagnostics.error("missing_bot_dir", folderProblem(rootDir) ?? "no bot/ folder (or legacy agent/) in this directory", {
      hint: "Create bot/instructions.md, or pass --dir pointing at a project.",
    });
    return { diagnostics: diagnostics.items };
  }
  if (ignored) {
    diagnostics.warning("legacy_dir_ignored", `both bot/ and ${ignored}/ exist; ${ignored}/ is ignored`, { file: `${ignored}/` });
  }

  const walk: Walk = { rootDir, botDir, diagnostics };
  const manifest: ProjectManifest = {
    name: projectName(rootDir, diagnostics),
    rootDir,
    botDir,
    tools: [],
    skills: [],
    subagents: [],
    mcpConnections: [],
    hostConnections: [],
    extensions: [],
    channels: [],
    hooks: [],
    schedules: [],
    reminders: [],
    sandboxFiles: [],
    evals: [],
  };

  walkBotRoot(walk, manifest);
  Object.assign(manifest, discoverEvals(rootDir, diagnostics));
  return { manifest, diagnostics: diagnostics.items };
}

function rel(walk: Walk, ...parts: string[]): string {
  return [walk.botDir, ...parts].join("/");
}

function abs(walk: Walk, ...parts: string[]): string {
  return path.join(walk.rootDir, walk.botDir, ...parts);
}

function walkBotRoot(walk: Walk, manifest: ProjectManifest): void {
  const instructionForms: string[] = [];
  const singles: Record<"agent" | "artifacts" | "result", string[]> = { agent: [], artifacts: [], result: [] };

  for (const entry of listDefinitionDir(abs(walk))) {
    const file = rel(walk, entry.name);
    if (entry.kind === "dir") {
      walkBotFolder(walk, manifest, entry.name, instructionForms);
      continue;
    }
    const stem = moduleStem(entry.name);
    if (entry.name === "instructions.md" || stem === "instructions") instructionForms.push(file);
    else if (stem === "agent" || stem === "artifacts" || stem === "result") singles[stem].push(file);
    else walk.diagnostics.warning("unknown_file", "is not part of the bot layout; ignored", { file });
  }

  for (const [kind, files] of Object.entries(singles)) {
    if (files.length > 1) {
      walk.diagnostics.error("multiple_forms", `${kind} is defined more than once: ${files.join(", ")}`, { file: files[1] });
    }
  }
  manifest.agentFile = singles.agent[0];
  manifest.artifactsFile = singles.artifacts[0];
  manifest.resultFile = singles.result[0];

  if (instructionForms.length === 0) {
    walk.diagnostics.error("missing_instructions", "the root agent has no instructions", {
      file: rel(walk, "instructions.md"),
      hint: `Create ${rel(walk, "instructions.md")} with the agent's always-on prompt (or instructions.ts, or an instructions/ folder).`,
    });
    return;
  }
  if (instructionForms.length > 1) {
    walk.diagnostics.error("multiple_forms", `instructions are defined more than once: ${instructionForms.join(", ")}`, {
      file: instructionForms[1],
      hint: "Keep exactly one of instructions.md, instructions.ts or instructions/.",
    });
  }
  const chosen = instructionForms[0];
  if (chosen.endsWith("/")) {
    const files = listDir(abs(walk, "instructions"))
      .filter((entry) => entry.kind === "file" && entry.name.endsWith(".md"))
      .map((entry) => rel(walk, "instructions", entry.name));
    manifest.instructions = { form: "directory", files };
  } else {
    manifest.instructions = { form: chosen.endsWith(".md") ? "markdown" : "module", files: [chosen] };
  }
}

function walkBotFolder(walk: Walk, manifest: ProjectManifest, folder: string, instructionForms: string[]): void {
  switch (folder) {
    case "tools":
      manifest.tools = namedModules(walk, "tools", "tool");
      return;
    case "channels":
      manifest.channels = namedModules(walk, "channels", "channel");
      return;
    case "reminders":
      manifest.reminders = namedModules(walk, "reminders", "reminder");
      return;
    case "mcp-connections":
      manifest.mcpConnections = namedModules(walk, "mcp-connections", "connection");
      return;
    case "host-connections":
      manifest.hostConnections = namedModules(walk, "host-connections", "connection");
      return;
    case "schedules":
      manifest.schedules = namedModules(walk, "schedules", "schedule", [".md"]);
      return;
    case "skills":
      manifest.skills = skills(walk);
      return;
    case "subagents":
      manifest.subagents = subagents(walk);
      return;
    case "extensions":
      manifest.extensions = extensions(walk);
      return;
    case "hooks":
      manifest.hooks = hooks(walk);
      return;
    case "sandbox":
      manifest.sandboxFiles = sandbox(walk);
      return;
    case "instructions":
      instructionForms.push(rel(walk, "instructions/"));
      for (const entry of listDir(abs(walk, "instructions"))) {
        if (entry.kind !== "file" || !entry.name.endsWith(".md")) {
          walk.diagnostics.warning("unknown_file", "only .md files are composed into the instructions; ignored", {
            file: rel(walk, "instructions", entry.name),
          });
        }
      }
      return;
    case "lib":
      return;
    case "evals":
      walk.diagnostics.warning("evals_inside_bot", "evals live at the project root, not inside the bot folder; ignored", {
        file: rel(walk, "evals/"),
        hint: "Move them to evals/ next to bot/.",
      });
      return;
    default:
      walk.diagnostics.warning("unknown_directory", "is not a known bot folder; ignored", {
        file: rel(walk, `${folder}/`),
        hint: `Known folders: ${[...CAPABILITY_DIRS, "lib", "instructions"].join(", ")}.`,
      });
  }
}

/** Adds an entry unless its name is invalid or already taken; reports either problem on the file. */
function addNamed<T extends NamedFile>(walk: Walk, list: T[], entry: T, kind: string): void {
  if (!NAME_PATTERN.test(entry.name)) {
    walk.diagnostics.error("invalid_name", `"${entry.name}" is not a valid ${kind} name`, {
      file: entry.file,
      hint: "Names may use letters, digits, _ and - (at most 64 characters).",
    });
    return;
  }
  const existing = list.find((candidate) => candidate.name === entry.name);
  if (existing) {
    walk.diagnostics.error("duplicate_name", `${kind} "${entry.name}" is defined twice: ${existing.file} and ${entry.file}`, {
      file: entry.file,
    });
    return;
  }
  list.push(entry);
}

function ignoredEntry(walk: Walk, file: string, isDirectory: boolean): void {
  if (isDeclarationFile(file)) return;
  if (isDirectory) walk.diagnostics.warning("unknown_directory", "folders are not discovered here; ignored", { file: `${file}/` });
  else if (/\.c[jt]s$/.test(file)) {
    walk.diagnostics.warning("unknown_file", "is a CommonJS file; definitions are ES modules, so it is ignored", {
      file,
      hint: "Rename it to .ts or .js, with `export default` for the definition.",
    });
  } else walk.diagnostics.warning("unknown_file", "is not a module; ignored", { file });
}

/** One definition per file: `<folder>/<name>.ts` (and `.md` where allowed). */
function namedModules(walk: Walk, folder: string, kind: string, extraExtensions: string[] = []): NamedFile[] {
  const list: NamedFile[] = [];
  for (const entry of listDefinitionDir(abs(walk, folder))) {
    const file = rel(walk, folder, entry.name);
    const extra = extraExtensions.find((extension) => entry.name.endsWith(extension));
    const name = entry.kind === "file" ? (moduleStem(entry.name) ?? (extra ? entry.name.slice(0, -extra.length) : undefined)) : undefined;
    if (name === undefined) ignoredEntry(walk, file, entry.kind === "dir");
    else addNamed(walk, list, { name, file }, kind);
  }
  return list;
}

function skills(walk: Walk): SkillEntry[] {
  const list: SkillEntry[] = [];
  for (const entry of listDefinitionDir(abs(walk, "skills"))) {
    const file = rel(walk, "skills", entry.name);
    if (entry.kind === "dir") {
      if (!existsSync(abs(walk, "skills", entry.name, "SKILL.md"))) {
        walk.diagnostics.error("invalid_definition", "a skill folder needs a SKILL.md", { file: `${file}/` });
        continue;
      }
      addNamed(walk, list, { name: entry.name, file: `${file}/SKILL.md`, form: "directory" }, "skill");
    } else if (entry.name.endsWith(".md")) {
      addNamed(walk, list, { name: entry.name.slice(0, -3), file, form: "markdown" }, "skill");
    } else {
      const name = moduleStem(entry.name);
      if (name === undefined) ignoredEntry(walk, file, false);
      else addNamed(walk, list, { name, file, form: "module" }, "skill");
    }
  }
  return list;
}

function subagents(walk: Walk): SubagentEntry[] {
  const list: (SubagentEntry & NamedFile)[] = [];
  for (const entry of listDefinitionDir(abs(walk, "subagents"))) {
    const folder = rel(walk, "subagents", entry.name);
    if (entry.kind !== "dir") {
      walk.diagnostics.warning("unknown_file", "subagents are folders (subagents/<id>/agent.ts); ignored", { file: folder });
      continue;
    }
    let agentFile: string | undefined;
    let instructionsFile: string | undefined;
    for (const inner of listDefinitionDir(abs(walk, "subagents", entry.name))) {
      const file = `${folder}/${inner.name}`;
      if (inner.kind === "dir") {
        if ((CAPABILITY_DIRS as readonly string[]).includes(inner.name)) {
          walk.diagnostics.warning("subagent_capability_ignored", "subagents share the parent's capabilities; this folder is ignored", {
            file: `${file}/`,
            hint: `Move it to ${rel(walk, inner.name)}/ to give it to the whole agent.`,
          });
        } else if (inner.name !== "lib") {
          walk.diagnostics.warning("unknown_directory", "is not part of a subagent; ignored", { file: `${file}/` });
        }
      } else if (moduleStem(inner.name) === "agent") {
        if (agentFile) walk.diagnostics.error("multiple_forms", `agent is defined more than once: ${agentFile}, ${file}`, { file });
        else agentFile = file;
      } else if (inner.name === "instructions.md") {
        instructionsFile = file;
      } else {
        walk.diagnostics.warning("unknown_file", "is not part of a subagent; ignored", { file });
      }
    }
    if (!agentFile) {
      walk.diagnostics.error("invalid_definition", "a subagent folder needs agent.ts default-exporting defineAgent({ description, ... })", {
        file: `${folder}/`,
      });
      continue;
    }
    addNamed(walk, list, { name: entry.name, id: entry.name, file: agentFile, instructionsFile }, "subagent");
  }
  return list.map(({ id, file, instructionsFile }) => ({ id, file, instructionsFile }));
}

function extensions(walk: Walk): NamedFile[] {
  const list: NamedFile[] = [];
  for (const entry of listDefinitionDir(abs(walk, "extensions"))) {
    const file = rel(walk, "extensions", entry.name);
    if (entry.kind === "dir") {
      const inner = listDefinitionDir(abs(walk, "extensions", entry.name));
      const index = inner.find((item) => item.kind === "file" && moduleStem(item.name) === "index");
      // A Cursor plugin folder (its .cursor-plugin/plugin.json) mounts without index.ts.
      const plugin = !index && existsSync(path.join(abs(walk, "extensions", entry.name), ".cursor-plugin", "plugin.json"));
      if (!index && !plugin) {
        walk.diagnostics.error("invalid_extension", "an extension folder needs index.ts default-exporting the mount, or a Cursor plugin's .cursor-plugin/plugin.json", {
          file: `${file}/`,
        });
        continue;
      }
      addNamed(walk, list, { name: entry.name, file: index ? `${file}/${index.name}` : `${file}/.cursor-plugin/plugin.json` }, "extension");
    } else {
      const name = moduleStem(entry.name);
      if (name === undefined) ignoredEntry(walk, file, false);
      else addNamed(walk, list, { name, file }, "extension");
    }
  }
  return list;
}

/** `hooks/**\/<name>.ts`, named by the path without extension (`audit/usage`). */
function hooks(walk: Walk): NamedFile[] {
  const list: NamedFile[] = [];
  for (const relative of listDefinitionFiles(abs(walk, "hooks"))) {
    const file = rel(walk, "hooks", relative);
    const stem = moduleStem(path.posix.basename(relative));
    if (stem === undefined) {
      ignoredEntry(walk, file, false);
      continue;
    }
    const name = [path.posix.dirname(relative), stem].filter((part) => part !== ".").join("/");
    if (!name.split("/").every((segment) => NAME_PATTERN.test(segment))) {
      walk.diagnostics.error("invalid_name", `"${name}" is not a valid hook name`, { file });
      continue;
    }
    const existing = list.find((candidate) => candidate.name === name);
    if (existing) walk.diagnostics.error("duplicate_name", `hook "${name}" is defined twice: ${existing.file} and ${file}`, { file });
    else list.push({ name, file });
  }
  return list.sort((a, b) => (a.name < b.name ? -1 : 1));
}

function sandbox(walk: Walk): string[] {
  for (const entry of listDir(abs(walk, "sandbox"))) {
    if (entry.name !== "workspace" || entry.kind !== "dir") {
      walk.diagnostics.warning(entry.kind === "dir" ? "unknown_directory" : "unknown_file", "only sandbox/workspace/ is used; ignored", {
        file: rel(walk, "sandbox", entry.name),
      });
    }
  }
  return listFilesRecursive(abs(walk, "sandbox", "workspace"));
}
