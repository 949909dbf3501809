/**
 * The transpiler (Babel, inside jiti) compiles `import x from "m"; x()` to
 * `(0, _m.default)()`, so a default import of a module without a callable
 * default export fails with `(0 , _m.default) is not a function`, which
 * names neither the import nor the module. This turns that text (and its
 * named-import twin `(0 , _m.name)`) back into the import the author wrote.
 */
import path from "node:path";
import { AUTHORING_SUBPATHS, PACKAGE_ALIASES } from "./authoring-modules.ts";
import { type ImportBinding, readImports } from "./module-imports.ts";
import { projectFrame } from "./project-frame.ts";

const INTEROP_CALL = /^\(0\s*,\s*((?:import)?_[\w$]*?)\d*\.([\w$]+)\) is not a function$/;

export interface InteropExplanation {
  message: string;
  /** Where the failing call is, relative to the project. */
  file?: string;
  line?: number;
}

export function explainInteropError(error: unknown, rootDir: string): InteropExplanation | undefined {
  if (!(error instanceof TypeError)) return undefined;
  const match = INTEROP_CALL.exec(error.message);
  if (!match) return undefined;
  const [, binding, member] = match;
  const site = projectFrame(error, rootDir);
  const imports = site ? readImports(site.absolute) : [];
  const found = imports.find((entry) => entry.imported === member && [babelBinding(entry.source), esbuildBinding(entry.source)].includes(binding));
  const where = site ? { file: path.relative(rootDir, site.absolute), line: site.line } : {};
  if (!found) {
    const kind = member === "default" ? "A default import" : `The import \`${member}\``;
    return { ...where, message: `${kind} is not a function: check whether its module exports it ${member === "default" ? "as default or by name" : "under that name"}.` };
  }
  return { ...where, message: member === "default" ? defaultImportMessage(found) : namedImportMessage(found) };
}

function defaultImportMessage({ local, source }: ImportBinding): string {
  const head = `\`${local}\` imported as default from \`${source}\` is not a function`;
  const kit = kitModule(source);
  if (!kit) return `${head}: the module has no default export that is a function. If it exports \`${local}\` by name, write: import { ${local} } from "${source}".`;
  const named = functionExports(kit);
  if (named.includes(local)) return `${head}: the module has no default export. Import it by name: import { ${local} } from "${source}".`;
  return `${head}: the module has no default export. Its functions: ${named.join(", ")}; import the one you need by name, e.g. import { ${named[0]} } from "${source}".`;
}

function namedImportMessage({ imported, source }: ImportBinding): string {
  const head = `\`${imported}\` imported from \`${source}\` is not a function`;
  const kit = kitModule(source);
  if (!kit) return `${head}: the module exports no function by that name.`;
  return `${head}: the module does not export it. Its functions: ${functionExports(kit).join(", ")}.`;
}

/** One of the kit's own modules (`@cursor/bdk/tools`, ...), whose exports are known here. */
function kitModule(source: string): object | undefined {
  for (const name of PACKAGE_ALIASES) {
    if (source === name) return AUTHORING_SUBPATHS[""];
    if (source.startsWith(`${name}/`)) return AUTHORING_SUBPATHS[source.slice(name.length + 1)];
  }
  return undefined;
}

function functionExports(module: object): string[] {
  return Object.entries(module)
    .filter(([name, value]) => name !== "default" && typeof value === "function")
    .map(([name]) => name);
}

/**
 * The name Babel gives the module binding of an import: `_` and the module's
 * base name as an identifier (`cursor-cloud-agents` → `_cursorCloudAgents`),
 * without trailing digits (Babel numbers repeats `_x2`, `_x3`).
 */
function babelBinding(source: string): string {
  const base = path.posix.basename(source, path.posix.extname(source));
  const identifier = base
    .replace(/[^\w$]/g, "-")
    .replace(/^[-0-9]+/, "")
    .replace(/[-\s]+(.)?/g, (_match, next: string | undefined) => (next ? next.toUpperCase() : ""));
  return `_${identifier.replace(/^_+/, "").replace(/\d+$/, "")}`;
}

/**
 * The name esbuild gives it (esbuild-transform.ts): `import_` and the base
 * name (the folder's for an `index`), other characters as `_`, without the
 * trailing digits of a repeat (`import_tools2`).
 */
function esbuildBinding(source: string): string {
  const base = path.posix.basename(source, path.posix.extname(source));
  const named = base === "index" ? path.posix.basename(path.posix.dirname(source)) : base;
  return `import_${named.replace(/[^\w$]/g, "_")}`.replace(/\d+$/, "");
}
