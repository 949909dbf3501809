/**
 * A static look at a project's imports before anything runs, with esbuild
 * (which parses TypeScript as the loader does and resolves `./x.js` to
 * `x.ts`): which project files each file imports, and which named imports
 * the imported module does not export. jiti's CommonJS interop turns such an
 * import into `undefined` silently; esbuild's linker reports it, for project
 * files and for the kit's own modules (`@cursor/bdk/...`).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { BuildOptions, Message, Metafile, Plugin } from "esbuild";
import { withEsbuild } from "./esbuild-service.ts";
import type { ProjectManifest } from "../discover/manifest.ts";
import { AUTHORING_SUBPATHS, PACKAGE_ALIASES } from "./authoring-modules.ts";
import type { ImportScanCache } from "./import-scan-cache.ts";

export interface MissingExport {
  /** The importing file, relative to the project root. */
  file: string;
  line?: number;
  /** The imported name (`default` for a default import). */
  name: string;
  /** The module as the project names it: a project path (`bot/lib/x.ts`) or a kit specifier (`@cursor/bdk/tools`). */
  module: string;
  /** esbuild's own suggestion, e.g. `Did you mean to import "formatGreeting" instead?` */
  suggestion?: string;
  /** For a default import, the name it binds (`import defineTool from ...`). */
  local?: string;
}

export interface ImportScan {
  /** Absolute file → the project files (absolute, outside node_modules) it imports directly. */
  imports: Map<string, Set<string>>;
  /** Absolute file → each of its project import specifiers as written (`../lib/x.js`, `~lib/x`) → the file it names. */
  specifiers: Map<string, Map<string, string>>;
  missingExports: MissingExport[];
}

const MODULE_FILE = /\.(?:[cm]?[jt]s|tsx|jsx)$/;
const FOLLOWED_FILE = /\.(?:[cm]?[jt]s|tsx|jsx|json)$/;
const KIT_NAMESPACE = "bdk-kit";
const KIT_SPECIFIER = new RegExp(`^(?:${PACKAGE_ALIASES.map((name) => name.replace(/[/@]/g, "\\$&")).join("|")})(?:/.*)?$`);
const RELATIVE = /^\.\.?(?:\/|$)/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Every module file the manifest names (definitions, instructions.ts, evals, ...). */
export function manifestModules(manifest: ProjectManifest): string[] {
  const files = new Set<string>();
  const add = (file: string | undefined) => {
    if (file && MODULE_FILE.test(file)) files.add(path.join(manifest.rootDir, file));
  };
  add(manifest.agentFile);
  add(manifest.artifactsFile);
  add(manifest.resultFile);
  add(manifest.evalsConfigFile);
  for (const file of manifest.instructions?.files ?? []) add(file);
  for (const subagent of manifest.subagents) add(subagent.file);
  for (const list of [manifest.tools, manifest.skills, manifest.mcpConnections, manifest.hostConnections, manifest.extensions, manifest.channels, manifest.hooks, manifest.schedules, manifest.reminders, manifest.evals]) {
    for (const entry of list) add(entry.file);
  }
  return [...files];
}

/** The kit module a specifier names (`@cursor/bdk/tools`, `bdk`, ...), or undefined. */
export function kitModule(specifier: string): Record<string, unknown> | undefined {
  const alias = PACKAGE_ALIASES.find((name) => specifier === name || specifier.startsWith(`${name}/`));
  return alias === undefined ? undefined : (AUTHORING_SUBPATHS[specifier.slice(alias.length + 1)] as Record<string, unknown> | undefined);
}

/** The kit's modules as esbuild sees them: one export per runtime export, so a missing name is a link error. */
function kitModuleSource(specifier: string): string {
  const module = kitModule(specifier);
  if (!module) return "";
  return Object.keys(module)
    .map((name) => (name === "default" ? "export default 0;" : IDENTIFIER.test(name) ? `export const ${name} = 0;` : ""))
    .join("\n");
}

type Graph = Omit<ImportScan, "missingExports">;

const isProjectFile = (rootDir: string, file: string) => file.startsWith(rootDir + path.sep) && !file.split(path.sep).includes("node_modules");

function addEdge(graph: Graph, importer: string, specifier: string, file: string): void {
  const edges = graph.imports.get(importer) ?? new Set<string>();
  edges.add(file);
  graph.imports.set(importer, edges);
  const named = graph.specifiers.get(importer) ?? new Map<string, string>();
  named.set(specifier, file);
  graph.specifiers.set(importer, named);
}

/** The kit's entry points as modules of their names; a kit specifier that is no entry point (`@cursor/bdk/dist/...`) is left to the loader, which says what it is. */
const kitPlugin: Plugin = {
  name: "bdk-kit-modules",
  setup(esbuild) {
    esbuild.onResolve({ filter: KIT_SPECIFIER }, (args) => (kitModule(args.path) ? { path: args.path, namespace: KIT_NAMESPACE } : { path: args.path, external: true }));
    esbuild.onLoad({ filter: /.*/, namespace: KIT_NAMESPACE }, (args) => ({ contents: kitModuleSource(args.path), loader: "js" }));
  },
};

/** The project's own edges from esbuild's metafile: what each project file imports, the specifier as written (`original`). */
function graphOfMetafile(rootDir: string, metafile: Metafile): Graph {
  const graph: Graph = { imports: new Map(), specifiers: new Map() };
  for (const [input, { imports }] of Object.entries(metafile.inputs)) {
    const importer = path.resolve(rootDir, input);
    if (input.includes(":") || !isProjectFile(rootDir, importer)) continue;
    for (const { path: imported, external, original } of imports) {
      const file = path.resolve(rootDir, imported);
      if (external || imported.includes(":") || !isProjectFile(rootDir, file) || !FOLLOWED_FILE.test(file)) continue;
      addEdge(graph, importer, original ?? imported, file);
    }
  }
  return graph;
}

/**
 * For a project esbuild cannot link (a missing export, a module not found,
 * an imported asset), which has no metafile: the edges are recorded as
 * esbuild resolves them, assets and unresolved modules left external.
 * Relative specifiers, and in a project with tsconfig `paths` every bare
 * one (an alias such as `~lib/x` is only told from a package by resolving
 * it), come to this callback, a round trip each.
 */
function graphPlugin(rootDir: string, graph: Graph, aliases: boolean): Plugin {
  return {
    name: "bdk-import-graph",
    setup(esbuild) {
      esbuild.onResolve({ filter: aliases ? /.*/ : RELATIVE }, async (args) => {
        if (args.pluginData === "resolving" || !args.importer) return undefined;
        const resolved = await esbuild.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: "resolving" });
        // Packages, builtins and assets (`.md`, ...) are not followed: only the project's own modules are linked.
        const followed = !resolved.external && resolved.errors.length === 0 && isProjectFile(rootDir, resolved.path) && FOLLOWED_FILE.test(resolved.path);
        if (!followed) return { path: args.path, external: true };
        if (isProjectFile(rootDir, args.importer)) addEdge(graph, args.importer, args.path, resolved.path);
        return { path: resolved.path };
      });
    },
  };
}

/** Whether the project's tsconfig.json may declare `paths` (its own or by `extends`): a cheap look, where a false positive only costs round trips. */
function mayHaveAliases(rootDir: string): boolean {
  let text: string;
  try {
    text = readFileSync(path.join(rootDir, "tsconfig.json"), "utf8");
  } catch {
    return false;
  }
  return /"(?:paths|extends)"/.test(text);
}

const NO_MATCHING_EXPORT = /^No matching export in "(.+)" for import "(.+)"$/;
const DEFAULT_BINDING = /\bimport\s+([A-Za-z_$][\w$]*)\s*(?:,|from\b)/;
const ALWAYS_UNDEFINED = /^Import "(.+)" will always be undefined because the file "(.+)" has no exports$/;

function missingExportOf(message: Message): MissingExport | undefined {
  const location = message.location;
  if (!location) return undefined;
  const [, module, name] = NO_MATCHING_EXPORT.exec(message.text) ?? [];
  const [, undefinedName, emptyModule] = ALWAYS_UNDEFINED.exec(message.text) ?? [];
  if (!(name ?? undefinedName)) return undefined;
  const suggestion = message.notes.map((note) => note.text).find((text) => /did you mean/i.test(text));
  const local = name === "default" ? DEFAULT_BINDING.exec(location.lineText)?.[1] : undefined;
  return {
    file: location.file,
    line: location.line,
    name: name ?? undefinedName,
    module: (module ?? emptyModule).replace(`${KIT_NAMESPACE}:`, ""),
    ...(suggestion ? { suggestion } : {}),
    ...(local ? { local } : {}),
  };
}

/**
 * Scans the files (absolute) and what they import. Errors esbuild finds
 * besides missing exports (syntax, unresolved modules) are left to the
 * loader, which reports them when it imports the file. Undefined when
 * esbuild cannot run at all.
 */
export async function scanImports(rootDir: string, entryFiles: string[], cache?: ImportScanCache): Promise<ImportScan | undefined> {
  if (entryFiles.length === 0) return { imports: new Map(), specifiers: new Map(), missingExports: [] };
  const cached = cache?.read(rootDir, entryFiles);
  if (cached) return cached;
  const startedAt = Date.now();
  const options: BuildOptions = {
    absWorkingDir: rootDir,
    entryPoints: entryFiles,
    bundle: true,
    write: false,
    outdir: path.join(rootDir, ".bdk-import-scan"),
    platform: "node",
    format: "esm",
    logLevel: "silent",
    packages: "external",
    splitting: true,
    // esbuild reads the project's tsconfig.json (and its `extends`) as the loader does, `paths` included.
  };
  return withEsbuild(async (esbuild) => {
    // A project that links: esbuild resolves every import itself, and the metafile says what it found. An
    // asset import (`./prompt.md`, no loader) fails it too, and takes the second way.
    const linked = await esbuild().build({ ...options, metafile: true, plugins: [kitPlugin] }).catch(() => undefined);
    if (linked) {
      const scan = { ...graphOfMetafile(rootDir, linked.metafile), missingExports: missingExportsOf(linked.warnings) };
      // Every file read, a package's or one outside the project too (a tsconfig `paths` alias may name them).
      const inputs = Object.keys(linked.metafile.inputs).filter((input) => !input.includes(":")).map((input) => path.resolve(rootDir, input));
      cache?.write(rootDir, entryFiles, inputs, scan, startedAt);
      return scan;
    }
    const graph: Graph = { imports: new Map(), specifiers: new Map() };
    try {
      const result = await esbuild().build({ ...options, plugins: [kitPlugin, graphPlugin(rootDir, graph, mayHaveAliases(rootDir))] });
      return { ...graph, missingExports: missingExportsOf(result.warnings) };
    } catch (error) {
      const failure = error as { errors?: Message[]; warnings?: Message[] };
      if (!Array.isArray(failure.errors)) return undefined;
      return { ...graph, missingExports: missingExportsOf([...failure.errors, ...(failure.warnings ?? [])]) };
    }
  });
}

function missingExportsOf(messages: Message[]): MissingExport[] {
  return messages.map(missingExportOf).filter((missing): missing is MissingExport => missing !== undefined);
}
