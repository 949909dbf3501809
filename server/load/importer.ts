/**
 * Imports a project's TypeScript/JavaScript at runtime with jiti. One importer
 * is one load of a project: modules are evaluated once and shared, so a
 * schedule importing `../channels/webhook.js` gets the very object discovery
 * saw. Creating a new importer for the same project re-evaluates its files
 * (hot reload); packages in node_modules stay cached.
 */
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createJiti } from "jiti";
import { messageOf } from "../protocol/errors.ts";
import { authoringVirtualModules } from "./authoring-modules.ts";
import { guardedImport, ImportTimeoutError, importTimeoutMs } from "./import-guard.ts";
import { explainInteropError } from "./interop-errors.ts";

export type ModuleImport =
  | { ok: true; module: Record<string, unknown> }
  /** `skipped`: not attempted, because an earlier import never finished (that one is reported). */
  | { ok: false; message: string; line?: number; skipped?: true };

export interface ProjectImporter {
  /** Imports an absolute file; failures (syntax error, missing module, a throw at top level) are returned, not thrown. */
  load(absoluteFile: string): Promise<ModuleImport>;
}

const FS_CACHE_DIR = path.join(os.tmpdir(), "bdk-jiti-cache");

/** Forget the project's own modules (not its node_modules) from the shared CommonJS cache jiti uses. */
function evictProjectModules(rootDir: string): void {
  const cache = createRequire(import.meta.url).cache;
  const prefix = rootDir.endsWith(path.sep) ? rootDir : rootDir + path.sep;
  for (const key of Object.keys(cache)) {
    if (key.startsWith(prefix) && !key.slice(prefix.length).split(path.sep).includes("node_modules")) delete cache[key];
  }
}

/**
 * The loader's message without a stack, paths relative to the project, and
 * the line when the transpiler reports `file:line:column`.
 */
export function describeImportError(error: unknown, rootDir: string, file: string): { message: string; line?: number } {
  const interop = explainInteropError(error, rootDir);
  if (interop) {
    const here = interop.file === path.relative(rootDir, file);
    return { message: here || !interop.file ? interop.message : `${interop.file}:${interop.line}: ${interop.message}`, line: here ? interop.line : undefined };
  }
  // A module may throw anything (`throw "x"`, `throw { code: 1 }`): keep what it threw.
  const raw = messageOf(error);
  const lineMatch = new RegExp(`${escapeRegExp(file)}:(\\d+)(?::\\d+)?`).exec(raw);
  const message = raw
    .split("\n")
    .map((part) => part.trim())
    .filter(Boolean)
    .join(" ")
    .split(rootDir + path.sep)
    .join("");
  return { message, line: lineMatch ? Number(lineMatch[1]) : undefined };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether the module has its own `default` export (jiti's interop proxy answers `.default` with the module itself). */
export function defaultExport(module: Record<string, unknown>): { found: boolean; value?: unknown } {
  return Object.prototype.hasOwnProperty.call(module, "default") ? { found: true, value: module.default } : { found: false };
}

export function createProjectImporter(rootDir: string): ProjectImporter {
  const root = path.resolve(rootDir);
  evictProjectModules(root);
  const jiti = createJiti(pathToFileURL(path.join(root, "package.json")).href, {
    moduleCache: true,
    interopDefault: true,
    fsCache: FS_CACHE_DIR,
    virtualModules: authoringVirtualModules(),
  });
  const timeoutMs = importTimeoutMs();
  // After an import that never finished, later ones could wait on the same module forever: they are not attempted.
  let stuck: string | undefined;
  return {
    async load(absoluteFile) {
      if (stuck) return { ok: false, message: `not imported: the import of ${stuck} never finished`, skipped: true };
      try {
        const module = (await guardedImport(absoluteFile, timeoutMs, () => jiti.import(absoluteFile))) as Record<string, unknown>;
        return { ok: true, module };
      } catch (error) {
        if (error instanceof ImportTimeoutError) {
          stuck = path.relative(root, absoluteFile);
          return { ok: false, message: `${error.message}; the project's other modules were not loaded` };
        }
        return { ok: false, ...describeImportError(error, root, absoluteFile) };
      }
    },
  };
}
