/**
 * Node's "Cannot find module" error carries a `Require stack` that names
 * absolute paths and whose frames differ between Node versions (so the line
 * was there on one and missing on another). This reads it the one way: the
 * module that was not found, the project file that imports it, the line of
 * that import in its syntax tree, and what to do about it, which depends on
 * what kind of specifier it is (a package, a relative path, a tsconfig
 * alias, a file of the published kit that only exists there).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { AUTHORING_SUBPATHS, PACKAGE_ALIASES } from "./authoring-modules.ts";
import { importLine } from "./module-imports.ts";

const NOT_FOUND = /^Cannot find (?:module|package) '([^']+)'/;
const NOT_EXPORTED = /^Package subpath '([^']+)' is not defined by "exports" in (\S+?package\.json)/;
const MODULE_SUFFIX = /\.(?:[cm]?[jt]s|tsx|jsx)$/;
const GUIDE = "See `bdk docs migrating-from-cursor-bdk`.";

export interface MissingModule {
  message: string;
  /** What to do about it. */
  hint: string;
  /** The importing file, absolute. */
  importer?: string;
  line?: number;
}

/** `loading`: the file whose import failed (absolute). */
export function explainMissingModule(error: unknown, rootDir: string, loading: string): MissingModule | undefined {
  if (!(error instanceof Error)) return undefined;
  const specifier = missingSpecifier(error);
  if (!specifier) return undefined;
  const importer = / imported from (\S+)/.exec(error.message)?.[1] ?? requireStack(error.message)[0];
  const inProject = importer && importer.startsWith(rootDir + path.sep) ? importer : undefined;
  return {
    ...advice(specifier, rootDir, inProject),
    importer: inProject,
    // Without an importer in the message (a subpath error names none), the line is looked for in the file being loaded.
    line: importLine(inProject ?? loading, specifier),
  };
}

/**
 * The specifier that did not resolve: a module not found, or a package
 * subpath its `exports` do not list (`@cursor/bdk/dist/...` with the kit
 * installed under that name), rebuilt from the package's folder.
 */
function missingSpecifier(error: Error): string | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND") return NOT_FOUND.exec(error.message)?.[1];
  if (code !== "ERR_PACKAGE_PATH_NOT_EXPORTED") return undefined;
  const [, subpath, manifest] = NOT_EXPORTED.exec(error.message) ?? [];
  const name = manifest && /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]package\.json$/.exec(manifest)?.[1];
  return name && subpath ? `${name.split(path.sep).join("/")}/${subpath.replace(/^\.\//, "")}` : undefined;
}

/** The message and hint for a specifier that did not resolve. */
function advice(specifier: string, rootDir: string, importer: string | undefined): { message: string; hint: string } {
  const kit = PACKAGE_ALIASES.find((name) => specifier.startsWith(`${name}/`));
  if (kit) {
    const subpath = specifier.slice(kit.length + 1);
    if (/^(?:dist|src|lib|build)\//.test(subpath)) {
      return {
        message: `${specifier} is a private file of the published ${kit}: it needs the Cursor-hosted kit`,
        hint: `The open kit has only the documented entry points (${kit}, ${kit}/tools, ${kit}/evals, ...); import from one of them. ${GUIDE}`,
      };
    }
    const entryPoints = Object.keys(AUTHORING_SUBPATHS).map((entry) => (entry ? `${kit}/${entry}` : kit));
    return { message: `${specifier} is not an entry point of the kit`, hint: `Import from one of: ${entryPoints.join(", ")}. ${GUIDE}` };
  }
  if (specifier.startsWith(".") || path.isAbsolute(specifier)) {
    const from = importer ? path.relative(rootDir, path.dirname(importer)).split(path.sep).join("/") || "." : "the importing file";
    const near = importer ? nearbyModule(path.resolve(path.dirname(importer), specifier)) : undefined;
    return {
      message: `Cannot find module '${specifier}'`,
      hint: `No file ${specifier} (.ts, .js, /index.ts) relative to ${from}/${near ? `; did you mean ${relativeSpecifier(path.dirname(importer!), near)}?` : ": check the path and the file name's case."}`,
    };
  }
  if (/^(?:@\/|~|#)/.test(specifier)) {
    const example = `"${specifier.split("/")[0]}/*": ["./*"]`;
    const hint = existsSync(path.join(rootDir, "tsconfig.json"))
      ? `It reads as a path alias, and no compilerOptions.paths entry of tsconfig.json resolves it: declare it there (e.g. ${example}) or import it by a relative path.`
      : `It reads as a path alias: declare it in compilerOptions.paths of a tsconfig.json at the project root (e.g. ${example}), which the loader follows, or import it by a relative path.`;
    return { message: `Cannot find module '${specifier}'`, hint };
  }
  const name = packageName(specifier);
  // An agent of a folder of agents may share its parent's package.json and node_modules, as Node's resolution does.
  if (!ancestors(rootDir).some((dir) => existsSync(path.join(dir, "node_modules")))) {
    return { message: `Cannot find package '${name}'`, hint: `The project has no node_modules: run npm install in it${declaredPackages(rootDir).has(name) ? "" : ` (and npm install ${name})`}.` };
  }
  const imported = name === specifier ? "" : ` (imported as '${specifier}')`;
  if (declaredPackages(rootDir).has(name)) {
    return { message: `Cannot find package '${name}'${imported}: package.json lists it, but it is not installed`, hint: "Run npm install in the project." };
  }
  return { message: `Cannot find package '${name}'${imported}`, hint: `Install it in the project: npm install ${name}.` };
}

/** The packages the project's package.json depends on, of any kind. */
function declaredPackages(rootDir: string): Set<string> {
  const file = ancestors(rootDir)
    .map((dir) => path.join(dir, "package.json"))
    .find((candidate) => existsSync(candidate));
  try {
    const manifest = JSON.parse(readFileSync(file ?? "", "utf8")) as Record<string, unknown>;
    const lists = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"].map((key) => manifest[key]);
    return new Set(lists.flatMap((list) => (list && typeof list === "object" ? Object.keys(list) : [])));
  } catch {
    return new Set();
  }
}

/** `dir` and the folders above it. */
function ancestors(dir: string): string[] {
  const list = [dir];
  while (path.dirname(list[list.length - 1]) !== list[list.length - 1]) list.push(path.dirname(list[list.length - 1]));
  return list;
}

/** A module file beside the missing one whose name is one or two edits away (`owner` for `owners`), when there is exactly one. */
function nearbyModule(missing: string): string | undefined {
  const wanted = path.basename(missing).replace(MODULE_SUFFIX, "");
  let names: string[];
  try {
    names = readdirSync(path.dirname(missing));
  } catch {
    return undefined;
  }
  const near = names.filter((name) => MODULE_SUFFIX.test(name) && !name.endsWith(".d.ts") && editDistance(name.replace(MODULE_SUFFIX, "").toLowerCase(), wanted.toLowerCase()) <= 2);
  return near.length === 1 ? path.join(path.dirname(missing), near[0]) : undefined;
}

function relativeSpecifier(fromDir: string, file: string): string {
  const relative = path.relative(fromDir, file).split(path.sep).join("/").replace(MODULE_SUFFIX, "");
  return relative.startsWith(".") ? relative : `./${relative}`;
}

/** Levenshtein distance, for names of a few dozen characters. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The files of the `Require stack:` list, innermost first. */
function requireStack(message: string): string[] {
  const [, list = ""] = message.split(/\nRequire stack:\n/);
  return list
    .split("\n")
    .map((entry) => entry.replace(/^\s*-\s*/, "").trim())
    .filter(Boolean);
}
