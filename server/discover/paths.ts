/** File-name conventions shared by the discovery walkers. */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

export const MODULE_EXTENSIONS = [".ts", ".mts", ".js", ".mjs"] as const;

/** Tool, skill, connection, channel, schedule and reminder names. */
export const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Type declarations sit beside modules without defining anything. */
export function isDeclarationFile(fileName: string): boolean {
  return /\.d\.m?ts$/.test(fileName);
}

/**
 * Unit tests kept beside the code they test (`greet.test.ts`,
 * `fmt.spec.ts`, `__tests__/`, `__mocks__/`), as real projects do: the test
 * runner's, never definitions, so discovery passes over them in silence.
 */
export function isUnitTestEntry(entry: DirEntry): boolean {
  if (entry.kind === "dir") return entry.name === "__tests__" || entry.name === "__mocks__";
  return /\.(?:test|spec)\.[cm]?[jt]sx?$/.test(entry.name);
}

/** `listDir` without unit-test files and folders: what a definition folder offers. */
export function listDefinitionDir(absoluteDir: string): DirEntry[] {
  return listDir(absoluteDir).filter((entry) => !isUnitTestEntry(entry));
}

/** `listFilesRecursive` without unit-test files and folders. */
export function listDefinitionFiles(absoluteDir: string, prefix = ""): string[] {
  const files: string[] = [];
  for (const entry of listDefinitionDir(absoluteDir)) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.kind === "dir") files.push(...listDefinitionFiles(path.join(absoluteDir, entry.name), relative));
    else files.push(relative);
  }
  return files;
}

export function moduleStem(fileName: string): string | undefined {
  if (isDeclarationFile(fileName)) return undefined;
  const extension = MODULE_EXTENSIONS.find((candidate) => fileName.endsWith(candidate));
  return extension ? fileName.slice(0, -extension.length) : undefined;
}

/** Why `dir` (absolute) cannot hold a project at all: it does not exist, or it is a file. */
export function folderProblem(dir: string): string | undefined {
  try {
    return statSync(dir).isDirectory() ? undefined : `${dir} is a file, not a project folder`;
  } catch {
    return `${dir} does not exist`;
  }
}

export interface DirEntry {
  name: string;
  kind: "file" | "dir";
}

/** Directory entries (symlinks followed) sorted by name, without dotfiles. A missing directory is empty. */
export function listDir(absoluteDir: string): DirEntry[] {
  let names: string[];
  try {
    names = readdirSync(absoluteDir);
  } catch {
    return [];
  }
  const entries: DirEntry[] = [];
  for (const name of names.sort()) {
    if (name.startsWith(".")) continue;
    try {
      const stats = statSync(path.join(absoluteDir, name));
      if (stats.isDirectory()) entries.push({ name, kind: "dir" });
      else if (stats.isFile()) entries.push({ name, kind: "file" });
    } catch {
      // A dangling symlink provides nothing.
    }
  }
  return entries;
}

/** Every file below a directory, as `/`-separated paths relative to it, sorted. */
export function listFilesRecursive(absoluteDir: string, prefix = ""): string[] {
  const files: string[] = [];
  for (const entry of listDir(absoluteDir)) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.kind === "dir") files.push(...listFilesRecursive(path.join(absoluteDir, entry.name), relative));
    else files.push(relative);
  }
  return files;
}
