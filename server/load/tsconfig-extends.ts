/**
 * The files a tsconfig's `extends` chain depends on, found as TypeScript
 * finds them: a relative or absolute path (tried as written, then with
 * `.json`), or a package in the `node_modules` folders from the config's
 * folder up (its `package.json` `tsconfig` field or its `tsconfig.json`; a
 * subpath as written, with `.json`, or its folder's `tsconfig.json`), one
 * specifier or an array of them (TypeScript 5), each extended config's own
 * `extends` in turn. A package whose `package.json` has `exports` is not
 * followed (TypeScript resolves through the map): the chain counts as
 * unknown, as does a config that cannot be parsed.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Every file whose content or absence decides the chain of `configFile`
 * (itself excluded): the configs it extends, and the nearer places a package
 * was looked for and not found. Undefined when the chain cannot be followed.
 */
export function tsconfigExtendsChain(configFile: string): string[] | undefined {
  const consulted = new Set<string>();
  const visited = new Set<string>();
  const follow = (file: string): boolean => {
    if (visited.has(file)) return true;
    visited.add(file);
    const config = readConfig(file);
    if (config === MISSING) return true;
    if (config === undefined) return false;
    const specifiers = config.extends === undefined ? [] : typeof config.extends === "string" ? [config.extends] : config.extends;
    if (!Array.isArray(specifiers) || !specifiers.every((specifier) => typeof specifier === "string")) return false;
    for (const specifier of specifiers) {
      const located = locate(specifier, path.dirname(file));
      if (!located) return false;
      for (const candidate of located.consulted) consulted.add(candidate);
      if (located.found && !follow(located.found)) return false;
    }
    return true;
  };
  if (!follow(configFile)) return undefined;
  consulted.delete(configFile);
  return [...consulted];
}

const MISSING = Symbol("missing");

function readConfig(file: string): { extends?: unknown } | undefined | typeof MISSING {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return MISSING;
  }
  try {
    const parsed: unknown = JSON.parse(withoutCommentsAndTrailingCommas(text));
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
const COMMENT = new RegExp(String.raw`(${STRING})|\/\/[^\n]*|\/\*[\s\S]*?\*\/`, "g");
const TRAILING_COMMA = new RegExp(String.raw`(${STRING})|,(\s*[}\]])`, "g");

/** tsconfig files are JSON with comments and trailing commas: both go (comments first), strings kept as written. */
function withoutCommentsAndTrailingCommas(text: string): string {
  return text
    .replace(COMMENT, (_match, string?: string) => string ?? " ")
    .replace(TRAILING_COMMA, (_match, string: string | undefined, closing: string | undefined) => string ?? closing ?? "");
}

const isFile = (file: string) => statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;

/** The first existing of `candidates`, with every candidate looked at (up to and including it). */
function firstFile(candidates: string[]): { consulted: string[]; found?: string } {
  const index = candidates.findIndex(isFile);
  return index < 0 ? { consulted: candidates } : { consulted: candidates.slice(0, index + 1), found: candidates[index] };
}

function locate(specifier: string, fromDir: string): { consulted: string[]; found?: string } | undefined {
  if (path.isAbsolute(specifier) || /^\.\.?(?:[\\/]|$)/.test(specifier)) {
    const file = path.resolve(fromDir, specifier);
    return firstFile(file.endsWith(".json") ? [file] : [file, `${file}.json`]);
  }
  const parts = specifier.split("/");
  const nameLength = specifier.startsWith("@") ? 2 : 1;
  const name = parts.slice(0, nameLength).join("/");
  const subpath = parts.slice(nameLength).join("/");
  const consulted: string[] = [];
  for (let folder = fromDir; ; folder = path.dirname(folder)) {
    const packageDir = path.join(folder, "node_modules", name);
    const manifestFile = path.join(packageDir, "package.json");
    consulted.push(manifestFile);
    const manifest = readConfig(manifestFile) as { exports?: unknown; tsconfig?: unknown } | undefined | typeof MISSING;
    if (manifest === undefined || (manifest !== MISSING && manifest.exports !== undefined)) return undefined;
    const target = path.join(packageDir, subpath);
    const candidates = subpath
      ? [target, ...(target.endsWith(".json") ? [] : [`${target}.json`]), path.join(target, "tsconfig.json")]
      : [...(manifest !== MISSING && typeof manifest.tsconfig === "string" ? [path.join(packageDir, manifest.tsconfig)] : []), path.join(packageDir, "tsconfig.json")];
    const here = firstFile(candidates);
    consulted.push(...here.consulted);
    if (here.found || manifest !== MISSING) return { consulted, found: here.found };
    if (path.dirname(folder) === folder) return { consulted };
  }
}
