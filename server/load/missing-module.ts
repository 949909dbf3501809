/**
 * Node's "Cannot find module" error carries a `Require stack` that names
 * absolute paths and whose frames differ between Node versions (so the line
 * was there on one and missing on another). This reads it the one way: the
 * module that was not found, the project file that imports it, and the line
 * of that import in its syntax tree.
 */
import path from "node:path";
import { importLine } from "./module-imports.ts";

const NOT_FOUND = /^Cannot find (?:module|package) '([^']+)'/;

export interface MissingModule {
  message: string;
  /** The importing file, absolute. */
  importer?: string;
  line?: number;
}

export function explainMissingModule(error: unknown, rootDir: string): MissingModule | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") return undefined;
  const match = NOT_FOUND.exec(error.message);
  if (!match) return undefined;
  const specifier = match[1];
  const importer = / imported from (\S+)/.exec(error.message)?.[1] ?? requireStack(error.message)[0];
  const inProject = importer && importer.startsWith(rootDir + path.sep) ? importer : undefined;
  return {
    message: `Cannot find module '${specifier}'`,
    importer: inProject,
    line: inProject ? importLine(inProject, specifier) : undefined,
  };
}

/** The files of the `Require stack:` list, innermost first. */
function requireStack(message: string): string[] {
  const [, list = ""] = message.split(/\nRequire stack:\n/);
  return list
    .split("\n")
    .map((entry) => entry.replace(/^\s*-\s*/, "").trim())
    .filter(Boolean);
}
