/**
 * The import scan of a project kept across runs: esbuild bundling the
 * project (import-graph.ts) took a fifth of a warm `bdk validate` of the
 * real-shaped 250-tool project (about 0.2 s of wall time, the esbuild
 * service's start included), for a result that only changes with the
 * project's sources. An entry is kept per project and entry list; it is
 * used while every file the scan read has the same content and every folder
 * it resolved in the same names (a new `x.ts` beside `x.js`, an added
 * `index.ts`, can change what a specifier names), and what else decides
 * resolution is unchanged: each such folder's `package.json`,
 * `tsconfig.json` and `jsconfig.json` (esbuild takes `paths` and `baseUrl`
 * from the nearest one), the lockfile (the nearest folder up from the
 * project that has one) and the `package.json` of each dependency the
 * project's `package.json` names. A tsconfig's `extends` chain counts too
 * (tsconfig-extends.ts: the configs it extends and the nearer places a
 * package was looked for); one that cannot be followed (a package with an
 * `exports` map, a config that does not parse) leaves the project scanned
 * each run.
 *
 * A file edited while esbuild scanned it would be stored with its new text
 * beside a scan of its old one: a scan is not kept when a file it depends
 * on was modified after the scan started (as git treats an index entry as
 * racy), and the next run scans again.
 *
 * Only a scan of a project that links is kept (esbuild's metafile lists the
 * files it read); one that does not is scanned again, and its loader
 * reports the problem anyway. Reading an entry refreshes its mtime (at most
 * daily), its place in the pruning order of the transpile cache's folder.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { kitVersion } from "../kit-dir.ts";
import type { ImportScan, MissingExport } from "./import-graph.ts";
import { defaultTranspileCacheDir, packageVersion, touchUsed } from "./transpile-cache.ts";
import { tsconfigExtendsChain } from "./tsconfig-extends.ts";

const FORMAT = "bdk-import-scan-2";

interface Entry {
  format: string;
  salt: string;
  entryFiles: string[];
  /** File (absolute) → hash of its text ("" when it does not exist). */
  files: Record<string, string>;
  /** Folder (absolute) → hash of its sorted entry names. */
  folders: Record<string, string>;
  imports: [string, string[]][];
  specifiers: [string, [string, string][]][];
  missingExports: MissingExport[];
}

const sha256 = (content: string | Buffer) => createHash("sha256").update(content).digest("hex");

/** A file's bytes (a lockfile may be binary: `bun.lockb`), undefined when it does not exist. */
function contentOf(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

const hashOf = (content: Buffer | undefined) => (content === undefined ? "" : sha256(content));

function folderHash(folder: string): string {
  try {
    return sha256(readdirSync(folder).sort().join("\n"));
  } catch {
    return "";
  }
}

/** Each file's folder and the folders above it up to the project root (`../lib` may name `lib.ts` or `lib/index.ts`); a file outside the project, its folder only. */
function foldersOf(rootDir: string, files: string[]): Set<string> {
  const folders = new Set<string>([rootDir]);
  const inside = (folder: string) => folder.startsWith(rootDir + path.sep);
  for (const file of files) {
    if (!inside(path.dirname(file))) folders.add(path.dirname(file));
    for (let folder = path.dirname(file); inside(folder) && !folders.has(folder); folder = path.dirname(folder)) folders.add(folder);
  }
  return folders;
}

/** In each folder of the project's modules: what decides how its specifiers resolve (`imports`, `type`, `paths`, `baseUrl`). */
const FOLDER_SETTINGS = ["package.json", "tsconfig.json", "jsconfig.json"];
const LOCKFILES = ["package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock", "bun.lockb"];
const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"];

/** `rootDir` and the folders above it, nearest first. */
function foldersUp(rootDir: string): string[] {
  const folders = [rootDir];
  for (let folder = path.dirname(rootDir); folder !== folders.at(-1); folder = path.dirname(folder)) folders.push(folder);
  return folders;
}

/** Each lockfile name in the folders from the project up to the first that has one: one appearing nearer counts too. */
function lockfiles(rootDir: string): string[] {
  const files: string[] = [];
  for (const folder of foldersUp(rootDir)) {
    const here = LOCKFILES.map((name) => path.join(folder, name));
    files.push(...here);
    if (here.some((file) => statSync(file, { throwIfNoEntry: false }))) break;
  }
  return files;
}

/** The `package.json` Node would find for each dependency of the project (and the nearer places one would shadow it from). */
function dependencyManifests(rootDir: string): string[] {
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(readFileSync(path.join(rootDir, "package.json"), "utf8")) as Record<string, unknown>;
  } catch {
    return [];
  }
  const names = new Set(DEPENDENCY_FIELDS.flatMap((field) => Object.keys((manifest[field] as Record<string, unknown> | undefined) ?? {})));
  const files: string[] = [];
  for (const name of names) {
    for (const folder of foldersUp(rootDir)) {
      const file = path.join(folder, "node_modules", name, "package.json");
      files.push(file);
      if (statSync(file, { throwIfNoEntry: false })) break;
    }
  }
  return files;
}

/** Linux stamps files from a clock updated each scheduler tick (up to 10 ms), so an mtime may read a little earlier than the edit. */
const CLOCK_TICK_MS = 20;

/** A modification time from after the scan started, allowing for the file system's clock (a tick behind) and whole-second stamps. */
function modifiedSince(file: string, startedAt: number): boolean {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return false;
  return stat.mtimeMs >= (stat.mtimeMs % 1000 === 0 ? Math.floor(startedAt / 2000) * 2000 : startedAt - CLOCK_TICK_MS);
}

export class ImportScanCache {
  constructor(
    private readonly dir: string,
    /** The kit's and esbuild's versions: a new kit may scan differently. */
    private readonly salt: string,
  ) {}

  /** One entry per project (a tool added replaces it, rather than adding one). */
  private entryFile(rootDir: string): string {
    return path.join(this.dir, `${sha256(rootDir)}.json`);
  }

  /** The kept scan, when nothing it depends on changed. */
  read(rootDir: string, entryFiles: string[]): ImportScan | undefined {
    let entry: Entry;
    try {
      entry = JSON.parse(readFileSync(this.entryFile(rootDir), "utf8")) as Entry;
    } catch {
      return undefined;
    }
    if (entry.format !== FORMAT || entry.salt !== this.salt || entry.entryFiles.join("\n") !== [...entryFiles].sort().join("\n")) return undefined;
    for (const [file, hash] of Object.entries(entry.files)) if (hashOf(contentOf(file)) !== hash) return undefined;
    for (const [folder, hash] of Object.entries(entry.folders)) if (folderHash(folder) !== hash) return undefined;
    touchUsed(this.entryFile(rootDir));
    return {
      imports: new Map(entry.imports.map(([file, imported]) => [file, new Set(imported)])),
      specifiers: new Map(entry.specifiers.map(([file, named]) => [file, new Map(named)])),
      missingExports: entry.missingExports,
    };
  }

  /**
   * Keeps `scan`, which read `inputs` (absolute files) in a scan started at
   * `startedAt` (ms), unless one of them changed since or a tsconfig's
   * `extends` cannot be followed. A cache that cannot be written costs the next
   * run its speed only.
   */
  write(rootDir: string, entryFiles: string[], inputs: string[], scan: ImportScan, startedAt: number): void {
    const modules = [...new Set([...inputs, ...entryFiles])];
    const folders = [...foldersOf(rootDir, modules)];
    const settings = folders.flatMap((folder) => FOLDER_SETTINGS.map((name) => path.join(folder, name)));
    const contents = new Map([...modules, ...settings, ...lockfiles(rootDir), ...dependencyManifests(rootDir)].map((file) => [file, contentOf(file)]));
    for (const setting of settings) {
      if (setting.endsWith("package.json") || !contents.get(setting)?.includes('"extends"')) continue;
      const chain = tsconfigExtendsChain(setting);
      if (!chain) return;
      for (const file of chain) if (!contents.has(file)) contents.set(file, contentOf(file));
    }
    const files = [...contents.keys()];
    const hashes = Object.fromEntries([...contents].map(([file, content]) => [file, hashOf(content)]));
    const folderHashes = Object.fromEntries(folders.map((folder) => [folder, folderHash(folder)]));
    // After reading them: an edit before the read shows in the mtime, one after it in the next run's hash.
    if ([...files, ...folders].some((file) => modifiedSince(file, startedAt))) return;
    const entry: Entry = {
      format: FORMAT,
      salt: this.salt,
      entryFiles: [...entryFiles].sort(),
      files: hashes,
      folders: folderHashes,
      imports: [...scan.imports].map(([file, imported]) => [file, [...imported]]),
      specifiers: [...scan.specifiers].map(([file, named]) => [file, [...named]]),
      missingExports: scan.missingExports,
    };
    const file = this.entryFile(rootDir);
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileSync(temporary, JSON.stringify(entry));
      renameSync(temporary, file);
    } catch {
      rmSync(temporary, { force: true });
    }
  }
}

/** Beside the transpiled modules (and pruned with them). */
export function defaultImportScanCache(): ImportScanCache {
  return new ImportScanCache(path.join(defaultTranspileCacheDir(), "scans"), `bdk ${kitVersion()} esbuild ${packageVersion("esbuild")}`);
}
