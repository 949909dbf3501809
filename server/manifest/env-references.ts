/**
 * Where a project reads environment variables: `${NAME}` templates in MCP
 * connections (resolved from the environment when the client opens) and
 * `process.env` reads in the bot's own code (found in its syntax tree).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { ConnectionDefinition } from "../authoring/connections.ts";
import { listFilesRecursive, MODULE_EXTENSIONS } from "../discover/paths.ts";
import { environmentReads } from "./process-env-scan.ts";

const TEMPLATE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Names in `${NAME}` templates of a connection's `headers` and `env` (the fields the runtime resolves). */
export function connectionTemplateVariables(definition: ConnectionDefinition): string[] {
  const record = definition as { headers?: Record<string, unknown>; env?: Record<string, unknown> };
  const names = new Set<string>();
  for (const value of [...Object.values(record.headers ?? {}), ...Object.values(record.env ?? {})]) {
    if (typeof value !== "string") continue;
    for (const match of value.matchAll(TEMPLATE)) names.add(match[1]);
  }
  return [...names];
}

/** Environment variables the bot folder's modules read (see `environmentReads`), with the files that read each. */
export function processEnvReads(rootDir: string, botDir: string): Map<string, string[]> {
  const reads = new Map<string, string[]>();
  const botRelative = path.relative(rootDir, botDir).split(path.sep).join("/");
  for (const relative of listFilesRecursive(botDir)) {
    if (relative.split("/").includes("node_modules")) continue;
    if (!MODULE_EXTENSIONS.some((extension) => relative.endsWith(extension))) continue;
    const source = readFileSync(path.join(botDir, relative), "utf8");
    const file = `${botRelative}/${relative}`;
    for (const name of environmentReads(relative, source)) {
      const files = reads.get(name) ?? [];
      if (!files.includes(file)) files.push(file);
      reads.set(name, files);
    }
  }
  return reads;
}

/** A name that by convention holds a credential. */
export function looksSecret(name: string): boolean {
  return /(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)/i.test(name);
}
