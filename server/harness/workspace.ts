/**
 * The session workspace: building it before the first turn, writing per-send
 * files into it, and the one confinement check every file tool goes through.
 */
import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { mkdir, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { LoadedSkill, LoadedTool } from "../load/types.ts";
import { BdkError } from "../protocol/errors.ts";
import { ConfinedPathError, openFileBeneath, writeFileBeneath } from "./confined-fs.ts";
import { agentToolScript, agentToolScriptPath } from "./builtin-tools/agent-tool-script.ts";
import { withAgentToolsSection } from "./builtin-tools/agents-file.ts";

const MAX_LINK_HOPS = 40;

function lstatOrUndefined(target: string) {
  try {
    return lstatSync(target);
  } catch {
    return undefined;
  }
}

/** The real path of `target`: symlinks along its existing part are followed, a missing tail is kept as is. */
function realPathAllowingMissing(target: string): string {
  let existing = target;
  const missing: string[] = [];
  for (let hops = 0; ; ) {
    try {
      return path.join(realpathSync(existing), ...missing);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
    }
    if (lstatOrUndefined(existing)?.isSymbolicLink()) {
      // A dangling link: writing through it would create its target, so its target is what counts.
      if (++hops > MAX_LINK_HOPS) throw new Error(`too many symbolic links in ${JSON.stringify(target)}`);
      existing = path.resolve(path.dirname(existing), readlinkSync(existing));
      continue;
    }
    missing.unshift(path.basename(existing));
    existing = path.dirname(existing);
  }
}

function isWithin(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (!relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative));
}

/**
 * Resolves `relative` against the workspace `root` (an absolute path is
 * accepted only when it lies inside), following symlinks of the part that
 * exists. Returns the real absolute path; throws when it leaves the workspace.
 */
export function resolveInside(root: string, relative: string): string {
  if (relative.includes("\0")) throw new Error(`path ${JSON.stringify(relative)} contains a NUL byte`);
  const realRoot = realPathAllowingMissing(path.resolve(root));
  const resolved = realPathAllowingMissing(path.resolve(realRoot, relative));
  if (!isWithin(realRoot, resolved)) throw new Error(`path ${JSON.stringify(relative)} is outside the workspace`);
  return resolved;
}

/** The nearest existing ancestor of `target` (or `target` itself), to check it can hold a file. */
function nearestExisting(target: string): string {
  let current = target;
  while (!lstatOrUndefined(current)) current = path.dirname(current);
  return current;
}

/** Why `relative` can never name a file inside a workspace (no filesystem access), or undefined. */
export function pathSyntaxProblem(relative: string): string | undefined {
  if (relative === "") return "is empty";
  if (relative.includes("\0")) return "contains a NUL byte";
  if (path.isAbsolute(relative) || /^[a-zA-Z]:/.test(relative) || relative.startsWith("\\")) return "must be a relative path";
  const segments = relative.split(/[\\/]/);
  if (segments.includes("..")) return 'must not contain ".." segments';
  if (segments.every((segment) => segment === "" || segment === ".")) return "does not name a file";
  return undefined;
}

/** Why `relative` may not be written below `dir`, or the absolute target. */
function checkFilePath(dir: string, relative: string, contents: unknown): { target: string } | { reason: string } {
  if (typeof contents !== "string") return { reason: "must map to a string" };
  const syntax = pathSyntaxProblem(relative);
  if (syntax) return { reason: syntax };
  let target: string;
  try {
    target = resolveInside(dir, relative);
  } catch {
    return { reason: "resolves outside the workspace through a symbolic link" };
  }
  const existing = nearestExisting(target);
  if (existing === target && statSync(target).isDirectory()) return { reason: "is a directory" };
  if (existing !== target && !statSync(existing).isDirectory()) return { reason: "needs a directory where a file exists" };
  return { target };
}

interface PlannedFile {
  relative: string;
  contents: string;
}

/**
 * Checks every entry against the workspace as it is now (synchronously, so a
 * caller can refuse a request before changing anything); throws on the first
 * bad path. The writes check again as they go (`writeFileBeneath`).
 */
export function planWorkspaceFiles(dir: string, files: Record<string, string>, label = "workspaceFiles"): PlannedFile[] {
  return Object.entries(files).map(([relative, contents]) => {
    const checked = checkFilePath(dir, relative, contents);
    if ("reason" in checked) throw new BdkError("invalid_request", `${label}: ${JSON.stringify(relative)} ${checked.reason}`);
    return { relative: path.posix.normalize(relative.replaceAll("\\", "/")), contents };
  });
}

/**
 * Validates every entry first, then writes each beneath `dir`, so a folder
 * swapped for a symlink meanwhile cannot carry a write out; one bad path
 * means nothing is written.
 */
async function writeConfinedFiles(dir: string, files: Record<string, string>, label: string): Promise<string[]> {
  const planned = planWorkspaceFiles(dir, files, label);
  for (const { relative, contents } of planned) {
    try {
      await writeFileBeneath(dir, relative, contents);
    } catch (error) {
      throw new BdkError("invalid_request", `${label}: ${JSON.stringify(relative)}: ${(error as Error).message}`);
    }
  }
  return planned.map((file) => file.relative);
}

/** Per-send files (relative path → contents) written before a turn. Returns the written relative paths. */
export function writeWorkspaceFiles(dir: string, files: Record<string, string>): Promise<string[]> {
  return writeConfinedFiles(dir, files, "workspaceFiles");
}

/** Copies seed files that are not in the workspace yet; symlinks in the seed are skipped. */
async function copyMissing(from: string, workspace: string, relative = ""): Promise<void> {
  const entries = await readdir(path.join(from, relative), { withFileTypes: true });
  for (const entry of entries) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      await copyMissing(from, workspace, child);
    } else if (entry.isFile()) {
      const contents = await readFile(path.join(from, child));
      await writeFileBeneath(workspace, child, contents, { onlyIfMissing: true }).catch((error: unknown) => {
        // The model may have replaced a seed folder by a file; its choice stands.
        if (!(error instanceof ConfinedPathError && error.code === "ENOTDIR")) throw error;
      });
    }
  }
}

function skillDocument(skill: LoadedSkill): string {
  const frontmatter = `---\nname: ${JSON.stringify(skill.name)}\ndescription: ${JSON.stringify(skill.description)}\n---\n\n`;
  return `${frontmatter}${skill.markdown.trim()}\n`;
}

async function readIfExists(dir: string, relative: string): Promise<string | undefined> {
  let opened: Awaited<ReturnType<typeof openFileBeneath>>;
  try {
    opened = await openFileBeneath(dir, relative);
  } catch (error) {
    if (error instanceof ConfinedPathError && error.code === "ENOENT") return undefined;
    throw error;
  }
  try {
    return await opened.file.readFile("utf8");
  } finally {
    await opened.file.close();
  }
}

export interface WorkspaceSetup {
  dir: string;
  /** The project directory: relative `LoadedTool.file` paths resolve against it. */
  rootDir: string;
  agentName: string;
  skills: LoadedSkill[];
  /** `bot/sandbox/workspace`, when the bot has one. */
  seedDir?: string;
  /** Tools with `execution: "agent"`. */
  agentTools: LoadedTool[];
}

/**
 * Builds the session workspace: seed files (never overwriting), skills under
 * `.cursor/skills/`, agent-tool scripts under `.bdk/tools/` and their
 * catalogue in `AGENTS.md`. Generated files are rewritten on every call, so
 * calling it again is safe.
 */
export async function prepareWorkspace(options: WorkspaceSetup): Promise<void> {
  const { dir } = options;
  await mkdir(dir, { recursive: true });
  if (options.seedDir) await copyMissing(options.seedDir, dir);

  for (const skill of options.skills) {
    const files = Object.entries({ ...skill.files, "SKILL.md": skillDocument(skill) });
    const placed = Object.fromEntries(files.map(([relative, contents]) => [`.cursor/skills/${skill.name}/${relative}`, contents]));
    await writeConfinedFiles(dir, placed, `skill ${JSON.stringify(skill.name)}`);
  }

  const scripts: Record<string, string> = {};
  for (const tool of options.agentTools) {
    if (!tool.file) throw new Error(`agent tool "${tool.name}" has no source file to run`);
    scripts[agentToolScriptPath(tool.name)] = agentToolScript(tool, path.resolve(options.rootDir, tool.file));
  }
  await writeConfinedFiles(dir, scripts, "agent tools");

  const current = await readIfExists(dir, "AGENTS.md");
  const next = withAgentToolsSection(current, options.agentName, options.agentTools);
  if (next !== current && next !== undefined) await writeFileBeneath(dir, "AGENTS.md", next);
}
