/** Builds throwaway projects in os.tmpdir() for discovery and loader tests. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { listFilesRecursive } from "../../discover/paths.ts";

export const KIT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

const created: string[] = [];

/**
 * Writes `files` (relative path → contents) into a fresh directory;
 * `node_modules` links to the kit's (zod, ...), or to the folder given.
 */
export function tempProject(files: Record<string, string>, options: { nodeModules?: boolean | string } = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bdk-test-"));
  created.push(dir);
  writeFiles(dir, files);
  if (options.nodeModules !== false) {
    const target = typeof options.nodeModules === "string" ? options.nodeModules : path.join(KIT_ROOT, "node_modules");
    symlinkSync(target, path.join(dir, "node_modules"), "dir");
  }
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [relative, contents] of Object.entries(files)) {
    const file = path.join(dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, contents);
  }
}

/**
 * Copies a project (e.g. a read-only conformance bot) into a writable temp
 * dir, as an installed project would look: with its own `node_modules` when
 * it has one (a fixture with its own dependencies), else the kit's.
 */
export function copyProject(source: string): string {
  const files: Record<string, string> = {};
  for (const relative of listFilesRecursive(source)) {
    if (!relative.split("/").includes("node_modules")) files[relative] = readFileSync(path.join(source, relative), "utf8");
  }
  const own = path.join(source, "node_modules");
  return tempProject(files, { nodeModules: existsSync(own) ? own : true });
}

export function removeTempProjects(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}
