/**
 * Node's "Cannot find module" error carries a `Require stack` that names
 * absolute paths and whose frames differ between Node versions (so the line
 * was there on one and missing on another). This reads it the one way: the
 * module that was not found, the project file that imports it, the line of
 * that import in its syntax tree, and what to do about it, which depends on
 * what kind of specifier it is (a package, a relative path, a tsconfig
 * alias, a file of the published kit that only exists there).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { AUTHORING_SUBPATHS, PACKAGE_ALIASES } from "./authoring-modules.ts";
import { importLine } from "./module-imports.ts";

const NOT_FOUND = /^Cannot find (?:module|package) '([^']+)'/;
const NOT_EXPORTED = /^Package subpath '([^']+)' is not defined by "exports" in (\S+?package\.json)/;
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
    return {
      message: `Cannot find module '${specifier}'`,
      hint: `No file ${specifier} (.ts, .js, /index.ts) relative to ${from}/: check the path and the file name's case.`,
    };
  }
  if (/^(?:@\/|~|#)/.test(specifier)) {
    return {
      message: `Cannot find module '${specifier}'`,
      hint: `It reads as a path alias: declare it in compilerOptions.paths of tsconfig.json at the project root (e.g. "${specifier.split("/")[0]}/*": ["./*"]), which the loader follows, or import it by a relative path.`,
    };
  }
  const name = packageName(specifier);
  const installed = existsSync(path.join(rootDir, "node_modules"));
  return {
    message: `Cannot find package '${name}'${name === specifier ? "" : ` (imported as '${specifier}')`}`,
    hint: installed
      ? `Install it in the project: npm install ${name} (it is then listed in package.json).`
      : `The project has no node_modules: run npm install in it (add ${name} to package.json if it is not there).`,
  };
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
