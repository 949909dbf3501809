/**
 * Imports a project's TypeScript/JavaScript at runtime with jiti. One importer
 * is one load of a project: modules are evaluated once and shared, so a
 * schedule importing `../channels/webhook.js` gets the very object discovery
 * saw. Creating a new importer for the same project re-evaluates its files
 * (hot reload); packages in node_modules stay cached.
 *
 * A project module that throws while it is evaluated (a shared `bot/lib`
 * file) is evaluated once: CommonJS would run it again for each importer, so
 * the importer remembers the failure and answers every later file that
 * imports it (per the import scan) with that failure, without running it.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type * as Esbuild from "esbuild";
import type { createJiti as CreateJiti, TransformOptions, TransformResult } from "jiti";
import { kitVersion } from "../kit-dir.ts";
import { messageOf } from "../protocol/errors.ts";
import { authoringVirtualModules } from "./authoring-modules.ts";
import type { ImportScan } from "./import-graph.ts";
import { guardedImport, ImportTimeoutError, importTimeoutMs } from "./import-guard.ts";
import { explainInteropError } from "./interop-errors.ts";
import { explainMissingModule } from "./missing-module.ts";
import { projectFrames } from "./project-frame.ts";
import { esbuildTransform, esbuildTransformAhead, finishEsbuildOutput, takes } from "./esbuild-transform.ts";
import { defaultTranspileCacheDir, packageVersion, TranspileCache } from "./transpile-cache.ts";
import { recordSourceLines } from "./transpiled-lines.ts";

export type ModuleImport =
  | { ok: true; module: Record<string, unknown> }
  | {
      ok: false;
      message: string;
      line?: number;
      /** What to do about it (a missing package: install it). */
      hint?: string;
      /** Another project module failed (relative path): it is reported once, for all its importers (`failedModules`). */
      failedModule?: string;
      /** The file (relative) whose import of a missing export made the load fail (`(0 , _x.default) is not a function`). */
      failedImport?: string;
      /** Not attempted, because an earlier import never finished (that one is reported). */
      skipped?: true;
    };

/** A project module that failed while other files imported it, and those files (paths relative to the project). */
export interface FailedModule {
  file: string;
  message: string;
  line?: number;
  hint?: string;
  importers: string[];
}

export interface ProjectImporter {
  /** Imports an absolute file; failures (syntax error, missing module, a throw at top level) are returned, not thrown. */
  load(absoluteFile: string): Promise<ModuleImport>;
  /** The modules other files failed on, in the order they failed. */
  failedModules(): FailedModule[];
  /** Why the project's tsconfig.json could not be read (its path aliases are then not used). */
  tsconfigProblem?: string;
  /** Imports `specifier` as `fromFile` would (the very module object it got); undefined when it cannot be loaded. */
  importFrom(specifier: string, fromFile: string): Promise<unknown>;
}

const require = createRequire(import.meta.url);
// Required, not imported: an ES module importing jiti's CommonJS has Node scan its 190 kB for exports (35 ms of CPU a start).
const { createJiti } = require("jiti") as { createJiti: typeof CreateJiti };

let transpileCache: TranspileCache | undefined;
let babel: ((input: TransformOptions) => TransformResult) | undefined;

function theTranspileCache(): TranspileCache {
  transpileCache ??= new TranspileCache({
    dir: defaultTranspileCacheDir(),
    salt: `bdk ${kitVersion()} jiti ${packageVersion("jiti")} esbuild ${packageVersion("esbuild")}`,
  });
  return transpileCache;
}

/** The cache's input for esbuild's output of a file: the same whatever jiti's options, which only `finishEsbuildOutput` reads. */
const esbuildEntry = (source: string, filename: string) => ({ source, filename, transpiler: "esbuild" });

/**
 * esbuild (esbuild-transform.ts), else jiti's own Babel transform, behind
 * the kit's cache (jiti's fs cache writes in place, keys by path and never
 * prunes). Babel is what jiti loads by default; it is not among the
 * package's exports, hence the path.
 */
function cachedTransform(input: TransformOptions): TransformResult {
  const cache = theTranspileCache();
  if (takes(input)) {
    const output = cache.transform(esbuildEntry(input.source, input.filename), (missed) => esbuildTransform(missed.source, missed.filename) ?? { code: "", error: "esbuild cannot parse it" });
    if (!output.error) {
      recordSourceLines(input.filename, output.lines);
      return { code: finishEsbuildOutput(output.code, input.async) };
    }
  }
  // Babel takes a while to load: a run that does not need it (all cached, or all taken by esbuild) does not load it.
  const output = cache.transform(input, (missed) => {
    babel ??= require(path.join(path.dirname(require.resolve("jiti")), "../dist/babel.cjs")) as (input: TransformOptions) => TransformResult;
    return babel(missed);
  });
  if (input.filename) recordSourceLines(input.filename, output.lines);
  return { code: output.code, error: output.error };
}

/**
 * Transpiles the project files a load is about to import (the import scan's)
 * that the cache does not hold, all at once: one by one, each sync call of
 * esbuild was a round trip, 2.5 ms a file of a cold load.
 */
export async function transpileAhead(esbuild: () => typeof Esbuild, files: Iterable<string>): Promise<void> {
  const inputs = [...files].flatMap((filename) => {
    try {
      return [esbuildEntry(readFileSync(filename, "utf8"), filename)];
    } catch {
      return [];
    }
  });
  await theTranspileCache().fillAhead(inputs, (missed) => esbuildTransformAhead(esbuild(), missed.source, missed.filename));
}

/** Static imports as jiti's transform writes them: `await jitiImport("../lib/x.js")`. */
const JITI_IMPORT = /\bjitiImport\((["'])([^"'\\\n]+)\1\)/g;

/** A package specifier resolved once per folder: the same package from another file of the folder is the same file. */
type PackageResolver = (specifier: string, fromFile: string) => string | undefined;

const BARE = /^(?![./#]|[a-z]+:)/;

/**
 * The transpiled module with each project import the scan resolved naming
 * its file. jiti resolves `../lib/x.js` (a `.ts` file) or an alias only
 * after trying every extension under every condition, each miss a thrown
 * error with a full stack: most of the load of a project with many tools.
 * A package (`zod`) it resolves again for every file that imports it, each
 * time reading its package.json and exports: `packageFile` answers for a
 * folder once. Done after the cache, whose entries depend on the text
 * alone. `aliases`: whether jiti reads the tsconfig `paths` the scan
 * resolved bare specifiers with (not when the tsconfig cannot be read).
 */
function withResolvedImports(code: string, filename: string, resolved: Map<string, string> | undefined, aliases: boolean, packageFile: PackageResolver): string {
  return code.replace(JITI_IMPORT, (call: string, _quote: string, specifier: string) => {
    const file = (aliases || specifier.startsWith(".") ? resolved?.get(specifier) : undefined) ?? (BARE.test(specifier) ? packageFile(specifier, filename) : undefined);
    return file ? `jitiImport(${JSON.stringify(file)})` : call;
  });
}

/**
 * `specifier` as jiti resolves a static import of `fromFile` (jiti's own
 * resolution, remembered per folder), for a package: not a builtin or a
 * kit module (jiti answers those before it resolves), not one that cannot
 * be resolved (jiti's own error then names it).
 */
function packageResolver(jiti: () => ReturnType<typeof CreateJiti>, virtualModules: Record<string, object>): PackageResolver {
  const known = new Map<string, string | undefined>();
  return (specifier, fromFile) => {
    if (isBuiltin(specifier) || specifier in virtualModules) return undefined;
    const key = `${path.dirname(fromFile)}\0${specifier}`;
    if (!known.has(key)) {
      const url = jiti().esmResolve(specifier, { parentURL: pathToFileURL(fromFile).href, try: true });
      known.set(key, url?.startsWith("file:") ? fileURLToPath(url) : undefined);
    }
    return known.get(key);
  };
}

/** Forget the project's own modules (not its node_modules) from the shared CommonJS cache jiti uses. */
function evictProjectModules(rootDir: string): void {
  const cache = require.cache;
  const prefix = rootDir.endsWith(path.sep) ? rootDir : rootDir + path.sep;
  for (const key of Object.keys(cache)) {
    if (key.startsWith(prefix) && !key.slice(prefix.length).split(path.sep).includes("node_modules")) delete cache[key];
  }
}

/**
 * The loader's message without a stack, paths relative to the project, and
 * the line when the transpiler reports `file:line:column`.
 */
export function describeImportError(error: unknown, rootDir: string, file: string): { message: string; line?: number; hint?: string; failedImport?: string } {
  const interop = explainInteropError(error, rootDir);
  if (interop) {
    const here = interop.file === path.relative(rootDir, file);
    return {
      message: here || !interop.file ? interop.message : `${interop.file}:${interop.line}: ${interop.message}`,
      line: here ? interop.line : undefined,
      ...(interop.file ? { failedImport: interop.file } : {}),
    };
  }
  const missing = explainMissingModule(error, rootDir, file);
  if (missing) {
    const here = missing.importer === undefined || missing.importer === file;
    const where = missing.importer && path.relative(rootDir, missing.importer).split(path.sep).join("/");
    return {
      message: here ? missing.message : `${where}${missing.line ? `:${missing.line}` : ""}: ${missing.message}`,
      line: here ? missing.line : undefined,
      hint: missing.hint,
    };
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

/**
 * The project module whose own evaluation threw: the innermost place the
 * error names (a stack frame, or the file a transform error could not parse)
 * in a project file that has not finished loading. A function of a loaded
 * module that throws when the importer calls it is the importer's failure,
 * not the module's.
 */
function throwingModule(error: unknown, rootDir: string, loading: string): { file: string; line?: number } | undefined {
  const cache = require.cache;
  const frame = projectFrames(error, rootDir).find(({ absolute }) => !cache[absolute]?.loaded);
  if (frame) return { file: frame.absolute, line: frame.line };
  // Node 24 gives a module that was not found no frame in the importing file: the error's own message names it.
  const missing = explainMissingModule(error, rootDir, loading);
  return missing?.importer ? { file: missing.importer, line: missing.line } : undefined;
}

/** The first module in `file`'s project imports (transitively, not `file` itself) that is known to fail. */
function failedImportOf(file: string, imports: Map<string, Set<string>>, failed: Map<string, FailedModule>): FailedModule | undefined {
  const seen = new Set([file]);
  const queue = [...(imports.get(file) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (seen.has(next)) continue;
    seen.add(next);
    const failure = failed.get(next);
    if (failure) return failure;
    queue.push(...(imports.get(next) ?? []));
  }
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether the module has its own `default` export (jiti's interop proxy answers `.default` with the module itself). */
export function defaultExport(module: Record<string, unknown>): { found: boolean; value?: unknown } {
  return Object.prototype.hasOwnProperty.call(module, "default") ? { found: true, value: module.default } : { found: false };
}

/** The project's own `tsconfig.json` (its `extends` are followed by jiti), when it has one. */
function projectTsconfig(root: string): string | undefined {
  const file = path.join(root, "tsconfig.json");
  return existsSync(file) ? file : undefined;
}

/**
 * jiti for one project. `compilerOptions.paths` aliases (`@/*`, `~lib/*`)
 * resolve as the project's editor and tsc resolve them; a tsconfig.json
 * that cannot be read (it extends a package that is not installed) costs
 * the aliases, not the load, and is reported.
 */
function createProjectJiti(root: string, specifiers: ImportScan["specifiers"]): { jiti: ReturnType<typeof CreateJiti>; tsconfigProblem?: string } {
  const parent = pathToFileURL(path.join(root, "package.json")).href;
  const virtualModules = authoringVirtualModules();
  let jiti: ReturnType<typeof CreateJiti> | undefined;
  const packageFile = packageResolver(() => jiti!, virtualModules);
  const options = (aliases: boolean) => ({
    moduleCache: true,
    interopDefault: true,
    fsCache: false,
    transform: (input: TransformOptions): TransformResult => {
      const output = cachedTransform(input);
      return output.error || !input.filename ? output : { code: withResolvedImports(output.code, input.filename, specifiers.get(input.filename), aliases, packageFile) };
    },
    virtualModules,
  });
  const tsconfig = projectTsconfig(root);
  if (!tsconfig) return { jiti: (jiti = createJiti(parent, options(true))) };
  try {
    return { jiti: (jiti = createJiti(parent, { ...options(true), tsconfigPaths: tsconfig })) };
  } catch (error) {
    return { jiti: (jiti = createJiti(parent, options(false))), tsconfigProblem: messageOf(error).split(root + path.sep).join("") };
  }
}

/**
 * `scan`: each project file's project imports (from the import scan), so
 * known failures are not re-run, and the files its specifiers name.
 */
export function createProjectImporter(rootDir: string, scan: Pick<ImportScan, "imports" | "specifiers"> = { imports: new Map(), specifiers: new Map() }): ProjectImporter {
  const { imports } = scan;
  const root = path.resolve(rootDir);
  evictProjectModules(root);
  const failed = new Map<string, FailedModule>();
  const relative = (file: string) => path.relative(root, file).split(path.sep).join("/");
  const answer = (failure: FailedModule, importer: string): ModuleImport => {
    failure.importers.push(relative(importer));
    return { ok: false, message: failure.message, line: failure.line, hint: failure.hint, failedModule: failure.file };
  };
  const { jiti, tsconfigProblem } = createProjectJiti(root, scan.specifiers);
  const timeoutMs = importTimeoutMs();
  // After an import that never finished, later ones could wait on the same module forever: they are not attempted.
  let stuck: string | undefined;
  return {
    async load(absoluteFile) {
      if (stuck) return { ok: false, message: `not imported: the import of ${stuck} never finished`, skipped: true };
      const known = failedImportOf(absoluteFile, imports, failed);
      if (known) return answer(known, absoluteFile);
      try {
        const module = (await guardedImport(absoluteFile, root, timeoutMs, () => jiti.import(absoluteFile))) as Record<string, unknown>;
        return { ok: true, module };
      } catch (error) {
        if (error instanceof ImportTimeoutError) {
          stuck = path.relative(root, absoluteFile);
          return { ok: false, message: `${error.message}; the project's other modules were not loaded` };
        }
        const thrower = throwingModule(error, root, absoluteFile);
        if (!thrower || thrower.file === absoluteFile) {
          const described = describeImportError(error, root, absoluteFile);
          return { ok: false, ...described, line: described.line ?? thrower?.line };
        }
        let failure = failed.get(thrower.file);
        if (!failure) {
          const { message, hint } = describeImportError(error, root, thrower.file);
          failure = { file: relative(thrower.file), message, line: thrower.line, ...(hint ? { hint } : {}), importers: [] };
          failed.set(thrower.file, failure);
        }
        return answer(failure, absoluteFile);
      }
    },
    failedModules: () => [...failed.values()],
    tsconfigProblem,
    async importFrom(specifier, fromFile) {
      try {
        return await jiti.import(specifier, { parentURL: pathToFileURL(fromFile).href });
      } catch {
        return undefined;
      }
    },
  };
}
