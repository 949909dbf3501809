/**
 * A project's TypeScript turned into the CommonJS jiti evaluates, with
 * esbuild rather than jiti's Babel: on a 250-tool project Babel took 3.4 s
 * of CPU (about 12 ms a file), esbuild well under a millisecond a file
 * (docs/decisions: the transpiler). The output keeps Babel's contract with
 * jiti: a static import is `await jitiImport(...)` (ESM packages load as
 * ESM, in import order), `import.meta` is the file's own, the code is strict.
 *
 * esbuild does not keep line numbers, so the transform also returns, for
 * each line of its output, the source line it came from (`lines`): stack
 * frames are read through it (transpiled-lines.ts).
 *
 * What it does not take is left to Babel, as before: a file esbuild cannot
 * parse (Babel's error is the one users know), a top-level await (esbuild's
 * CommonJS output has none), a dynamic `import()` (it must become
 * `jitiImport`, which only a parser can place), `.tsx` and JavaScript, and
 * a module imported outside a load (esbuild-service.ts).
 */
import { SourceMap, type SourceMapping } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type * as Esbuild from "esbuild";
import type { TransformOptions as EsbuildOptions } from "esbuild";
import type { TransformOptions } from "jiti";
import { esbuildHeld, esbuildModule } from "./esbuild-service.ts";

export interface EsbuildOutput {
  code: string;
  /** The source line (1-based) of each output line. */
  lines: number[];
}

const TYPESCRIPT = /\.[cm]?ts$/;
const DYNAMIC_IMPORT = /\bimport\s*\(/;
const SPECIFIER = String.raw`("(?:[^"\\\n]|\\.)*")`;
/**
 * The statements esbuild writes for a static import or re-export, at the
 * start of a line: `var import_x = require("x")`, `var ns = __toESM(require("x"))`,
 * `__reExport(x_exports, require("x"), module.exports)`. `__toESM` goes: jiti's
 * module proxy already answers `.default` (and a name the module lacks, from
 * its default) as Babel's output reads it.
 */
const STATIC_IMPORTS = [
  new RegExp(String.raw`^(var [\w$]+ = )__toESM\(require\(${SPECIFIER}\)(?:, 1)?\)`, "gm"),
  new RegExp(String.raw`^(var [\w$]+ = |__reExport\([\w$]+, )require\(${SPECIFIER}\)`, "gm"),
];

/** Whether esbuild transforms `filename`'s `source` (else Babel does). */
function esbuildTakes(filename: string, source: string): boolean {
  return esbuildHeld() && TYPESCRIPT.test(filename) && !DYNAMIC_IMPORT.test(source);
}

/** Whether `input` is one esbuild transforms (else Babel does). */
export function takes(input: TransformOptions): input is TransformOptions & { filename: string } {
  return Boolean(input.ts && input.filename && esbuildTakes(input.filename, input.source));
}

/** `import.meta` as jiti's Babel plugins write it: the file's URL, path and folder, `env` and `resolve`. */
function importMeta(filename: string): Record<string, string> {
  const url = JSON.stringify(pathToFileURL(filename).href);
  const file = JSON.stringify(filename);
  const dir = JSON.stringify(path.dirname(filename));
  return {
    "import.meta.url": url,
    "import.meta.filename": file,
    "import.meta.dirname": dir,
    "import.meta.env": "process.env",
    "import.meta.resolve": "jitiESMResolve",
    "import.meta": `{"url":${url},"filename":${file},"dirname":${dir}}`,
  };
}

/** The source line of each output line: the first mapping on it, else the line above's. */
function sourceLines(code: string, map: string): number[] {
  const sourceMap = new SourceMap(JSON.parse(map) as ConstructorParameters<typeof SourceMap>[0]);
  const lines: number[] = [];
  let previous = 1;
  code.split("\n").forEach((text, index) => {
    const column = text.search(/\S/);
    // An empty object when nothing maps there.
    const entry = column === -1 ? undefined : (sourceMap.findEntry(index, column) as Partial<SourceMapping>);
    const found = entry?.originalLine !== undefined && entry.generatedLine === index ? entry.originalLine + 1 : undefined;
    previous = found ?? previous;
    lines.push(previous);
  });
  return lines;
}

function transformOptions(filename: string): EsbuildOptions {
  return {
    loader: "ts",
    format: "cjs",
    platform: "node",
    target: `node${process.versions.node}`,
    sourcefile: filename,
    sourcemap: "external",
    legalComments: "none",
    logLevel: "silent",
    // jiti's Babel reads decorators as TypeScript's legacy ones.
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true } },
    define: importMeta(filename),
  };
}

/**
 * esbuild's CommonJS for a file, before its imports take the form of the
 * load (`finishEsbuildOutput`): what the transpile cache keeps, so that it
 * can be produced ahead of the load (`esbuildTransformAhead`). Undefined
 * when esbuild cannot parse the file.
 */
export function esbuildTransform(source: string, filename: string): EsbuildOutput | undefined {
  try {
    const result = esbuildModule().transformSync(source, transformOptions(filename));
    return { code: result.code, lines: sourceLines(result.code, result.map) };
  } catch {
    return undefined;
  }
}

/** `esbuildTransform` with esbuild's async API: a load transforms the files of its import scan at once, esbuild's threads in parallel. */
export async function esbuildTransformAhead(esbuild: typeof Esbuild, source: string, filename: string): Promise<EsbuildOutput | undefined> {
  if (!esbuildTakes(filename, source)) return undefined;
  try {
    const result = await esbuild.transform(source, transformOptions(filename));
    return { code: result.code, lines: sourceLines(result.code, result.map) };
  } catch {
    return undefined;
  }
}

/** The module jiti evaluates: each static import loaded as the load does (`async`: `await jitiImport(...)`), the code strict. */
export function finishEsbuildOutput(code: string, async: boolean | undefined): string {
  const load = (specifier: string) => (async ? `(await jitiImport(${specifier}))` : `require(${specifier})`);
  const finished = STATIC_IMPORTS.reduce((text, pattern) => text.replace(pattern, (_statement, before: string, specifier: string) => before + load(specifier)), code);
  // On the first line, so that no line moves: Babel's output is strict too.
  return `"use strict";${finished}`;
}
