/**
 * Reads a Cursor plugin folder into extension contributions:
 * `skills/<name>/SKILL.md` (+ the files beside it), `agents/<name>.md`
 * (frontmatter `description`, optional `model`; the body is the subagent's
 * instructions) and `.mcp.json` / `mcp.json` (`mcpServers`, a stdio server
 * runs in the plugin folder). `.cursor-plugin/plugin.json` may describe it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { AgentDefinition } from "../authoring/agent.ts";
import type { ConnectionDefinition } from "../authoring/connections.ts";
import type { ExtensionContributions } from "../authoring/extensions.ts";
import type { SkillDefinition } from "../authoring/skills.ts";
import { parseFrontmatter } from "../discover/frontmatter.ts";
import { DefinitionError } from "./definition-error.ts";
import { skillFolderFiles } from "./skills.ts";

export const PLUGIN_MANIFEST = path.join(".cursor-plugin", "plugin.json");

export interface CursorPlugin {
  description?: string;
  contributions: ExtensionContributions;
}

export function readCursorPlugin(dir: string): CursorPlugin {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new DefinitionError("invalid_extension", `the Cursor plugin folder ${dir} does not exist`);
  }
  return {
    description: manifestDescription(dir),
    contributions: {
      tools: {},
      skills: skills(dir),
      connections: mcpServers(dir),
      hooks: {},
      channels: {},
      schedules: {},
      subagents: agents(dir),
    },
  };
}

function manifestDescription(dir: string): string | undefined {
  const file = path.join(dir, PLUGIN_MANIFEST);
  if (!existsSync(file)) return undefined;
  const manifest = readJson(file) as { description?: unknown };
  return typeof manifest.description === "string" ? manifest.description : undefined;
}

function skills(dir: string): Record<string, SkillDefinition> {
  const found: Record<string, SkillDefinition> = {};
  for (const name of subfolders(path.join(dir, "skills"))) {
    const folder = path.join(dir, "skills", name);
    const skillFile = path.join(folder, "SKILL.md");
    if (!existsSync(skillFile)) continue;
    const { data, body } = frontmatter(skillFile);
    found[name] = { description: stringField(data.description, skillFile, "description"), markdown: body.trim(), files: skillFolderFiles(folder) };
  }
  return found;
}

function agents(dir: string): Record<string, AgentDefinition> {
  const folder = path.join(dir, "agents");
  const found: Record<string, AgentDefinition> = {};
  if (!existsSync(folder)) return found;
  for (const entry of readdirSync(folder).filter((name) => name.endsWith(".md")).sort()) {
    const file = path.join(folder, entry);
    const { data, body } = frontmatter(file);
    const name = typeof data.name === "string" && data.name.trim() ? data.name.trim() : entry.slice(0, -3);
    found[name] = {
      description: stringField(data.description, file, "description"),
      instructions: body.trim(),
      ...(typeof data.model === "string" ? { model: data.model } : {}),
    };
  }
  return found;
}

type McpServerEntry = { command?: unknown; args?: unknown; env?: unknown; cwd?: unknown; url?: unknown; headers?: unknown };

function mcpServers(dir: string): Record<string, ConnectionDefinition> {
  const file = [".mcp.json", "mcp.json"].map((name) => path.join(dir, name)).find((candidate) => existsSync(candidate));
  if (!file) return {};
  const servers = (readJson(file) as { mcpServers?: Record<string, McpServerEntry> }).mcpServers ?? {};
  const found: Record<string, ConnectionDefinition> = {};
  for (const [name, server] of Object.entries(servers)) {
    if (typeof server?.url === "string") {
      found[name] = { url: server.url, ...(isStringMap(server.headers) ? { headers: server.headers } : {}) };
    } else if (typeof server?.command === "string") {
      found[name] = {
        command: server.command,
        args: Array.isArray(server.args) ? server.args.map(String) : [],
        ...(isStringMap(server.env) ? { env: server.env } : {}),
        // The plugin's own scripts are relative to its folder.
        cwd: path.resolve(dir, typeof server.cwd === "string" ? server.cwd : "."),
      };
    } else {
      throw new DefinitionError("invalid_extension", `${file}: mcpServers.${name} needs a command (stdio) or a url (remote)`);
    }
  }
  return found;
}

function subfolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
}

function frontmatter(file: string) {
  try {
    return parseFrontmatter(readFileSync(file, "utf8"));
  } catch (error) {
    throw new DefinitionError("invalid_frontmatter", `${file}: ${(error as Error).message}`);
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new DefinitionError("invalid_extension", `${file} is not valid JSON: ${(error as Error).message}`);
  }
}

function stringField(value: unknown, file: string, field: string): string {
  if (typeof value !== "string" || !value.trim()) throw new DefinitionError("missing_description", `${file} needs a ${field} in its frontmatter`);
  return value;
}

function isStringMap(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null && Object.values(value).every((item) => typeof item === "string");
}
