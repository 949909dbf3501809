/**
 * Shared state of one project load: the importer, the diagnostics and the
 * check that a file default-exports the expected `define*` value.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { kindOf, type DefinitionKind } from "../authoring/brand.ts";
import type { DiagnosticList } from "../discover/diagnostics.ts";
import { DefinitionError } from "./definition-error.ts";
import { defaultExport, type ProjectImporter } from "./importer.ts";
import type { ProjectZod } from "./project-zod.ts";

export interface LoadContext {
  rootDir: string;
  importer: ProjectImporter;
  diagnostics: DiagnosticList;
  /** The zod copies of the project met so far (tool schemas are converted with their own copy). */
  projectZod: ProjectZod;
  /** Files whose missing imports the import scan reported: a load failure they explain is not reported twice. */
  missingExportFiles: Set<string>;
}

export function absolute(ctx: LoadContext, file: string): string {
  return path.join(ctx.rootDir, file);
}

export function readProjectFile(ctx: LoadContext, file: string): string {
  return readFileSync(absolute(ctx, file), "utf8");
}

/** Imports a file; reports an import failure on it (a module it imports that failed is reported once, by `reportFailedModules`). */
export async function importFile(ctx: LoadContext, file: string): Promise<Record<string, unknown> | undefined> {
  const imported = await ctx.importer.load(absolute(ctx, file));
  if (imported.ok) return imported.module;
  if (imported.skipped) return undefined;
  const explained = imported.failedImport !== undefined && ctx.missingExportFiles.has(imported.failedImport);
  if (!imported.failedModule && !explained) {
    ctx.diagnostics.error("import_failed", `failed to load: ${imported.message}`, { file, line: imported.line, ...(imported.hint ? { hint: imported.hint } : {}) });
  }
  return undefined;
}

export interface Expectation {
  kinds: DefinitionKind[];
  /** How the message names the helper, e.g. `defineTool(...)`. */
  helper: string;
  /** Accepts values without a brand (plain-object tools, string instructions). */
  accept?: (value: unknown) => boolean;
}

/** The file's default export when it is the expected definition; otherwise reports `wrong_export` and returns undefined. */
export async function importDefinition(ctx: LoadContext, file: string, expectation: Expectation): Promise<unknown> {
  const module = await importFile(ctx, file);
  if (!module) return undefined;
  const exported = defaultExport(module);
  const kind = kindOf(exported.value);
  if (exported.found && ((kind && expectation.kinds.includes(kind)) || expectation.accept?.(exported.value))) return exported.value;
  ctx.diagnostics.error("wrong_export", `must default-export ${expectation.helper}`, {
    file,
    hint: exported.found
      ? kind
        ? `It exports a ${kind} definition instead.`
        : `It exports ${describe(exported.value)}.`
      : "It has no default export.",
  });
  return undefined;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return "a function";
  return typeof value === "object" ? "a plain object" : `a ${typeof value}`;
}

/**
 * Runs a definition check; its failure becomes a diagnostic on the file. Any
 * other throw (a value of an unexpected shape) is reported the same way, so
 * loading never throws.
 */
export function checked<T>(ctx: LoadContext, file: string, check: () => T, prefix = ""): T | undefined {
  try {
    return check();
  } catch (error) {
    if (error instanceof DefinitionError) ctx.diagnostics.error(error.code, prefix + error.message, { file, hint: error.hint });
    else ctx.diagnostics.error("invalid_definition", `${prefix}${error instanceof Error ? error.message : String(error)}`, { file });
    return undefined;
  }
}
