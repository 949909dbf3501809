/**
 * Single project or a folder of projects (a multi-agent host mounting each
 * child at `/<slug>/...`).
 */
import path from "node:path";
import { DiagnosticList, type Diagnostic } from "./diagnostics.ts";
import { folderProblem, listDir } from "./paths.ts";
import { findBotDir } from "./project.ts";

export const SLUG_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
export const RESERVED_SLUGS = ["v1", "playground", "docs"] as const;

export interface HostAgent {
  slug: string;
  dir: string;
}

export type HostLayout =
  | { kind: "single"; dir: string; diagnostics: Diagnostic[] }
  | { kind: "multi"; dir: string; agents: HostAgent[]; diagnostics: Diagnostic[] }
  | { kind: "empty"; dir: string; diagnostics: Diagnostic[] };

export function slugProblem(slug: string): string | undefined {
  if (!SLUG_PATTERN.test(slug)) return `"${slug}" is not a valid agent slug (letters, digits, _ and -, starting with a letter or digit)`;
  if ((RESERVED_SLUGS as readonly string[]).includes(slug)) return `"${slug}" is reserved and cannot be an agent slug`;
  return undefined;
}

export function discoverHost(dir: string): HostLayout {
  const root = path.resolve(dir);
  if (findBotDir(root).botDir) return { kind: "single", dir: root, diagnostics: [] };

  const diagnostics = new DiagnosticList();
  const missing = folderProblem(root);
  if (missing) {
    diagnostics.error("missing_bot_dir", missing, { hint: "Point --dir at a folder containing bot/, or at a folder whose subfolders do." });
    return { kind: "empty", dir: root, diagnostics: diagnostics.items };
  }
  const agents: HostAgent[] = [];
  for (const entry of listDir(root)) {
    if (entry.kind !== "dir" || entry.name === "node_modules") continue;
    const child = path.join(root, entry.name);
    if (!findBotDir(child).botDir) continue;
    const problem = slugProblem(entry.name);
    if (problem) diagnostics.error("invalid_slug", problem, { file: `${entry.name}/`, hint: "Rename the folder." });
    else agents.push({ slug: entry.name, dir: child });
  }
  if (agents.length === 0 && diagnostics.items.length === 0) {
    diagnostics.error("missing_bot_dir", "neither a project (bot/ folder) nor a folder of projects", {
      hint: "Point --dir at a folder containing bot/, or at a folder whose subfolders do.",
    });
    return { kind: "empty", dir: root, diagnostics: diagnostics.items };
  }
  return { kind: "multi", dir: root, agents, diagnostics: diagnostics.items };
}

/** The one agent a command works on, and the folder of agents it belongs to (`--dir parent --slug a`). */
export type AgentSelection =
  | { ok: true; dir: string; slug?: string; host?: { dir: string; agents: HostAgent[] } }
  | { ok: false; message: string };

/**
 * `dir` itself when it is a project; in a folder of agents, the one named by
 * `slug` (or the only one). Otherwise the message says what to pass,
 * listing the slugs to choose from.
 */
export function selectAgent(dir: string, slug?: string): AgentSelection {
  const layout = discoverHost(dir);
  if (layout.kind === "single") {
    if (slug === undefined || slug === path.basename(layout.dir)) return { ok: true, dir: layout.dir };
    return { ok: false, message: `--slug ${slug}: ${layout.dir} is one agent, not a folder of agents; leave out --slug` };
  }
  if (layout.kind === "empty") {
    // The loader reports the missing bot/ folder in its own words.
    return slug === undefined ? { ok: true, dir: layout.dir } : { ok: false, message: `--slug ${slug}: ${layout.dir} holds no agents (no bot/ folder in it or its subfolders)` };
  }
  if (layout.agents.length === 0) return { ok: false, message: layout.diagnostics.map((diagnostic) => diagnostic.message).join("; ") };
  const slugs = layout.agents.map((agent) => agent.slug).join(", ");
  const host = { dir: layout.dir, agents: layout.agents };
  if (slug === undefined) {
    if (layout.agents.length === 1) return { ok: true, dir: layout.agents[0].dir, slug: layout.agents[0].slug, host };
    return { ok: false, message: `${layout.dir} is a folder of ${layout.agents.length} agents; choose one with --slug (${slugs})` };
  }
  const agent = layout.agents.find((candidate) => candidate.slug === slug);
  if (!agent) return { ok: false, message: `--slug ${slug}: no agent "${slug}" in ${layout.dir}; its agents are ${slugs}` };
  return { ok: true, dir: agent.dir, slug: agent.slug, host };
}
