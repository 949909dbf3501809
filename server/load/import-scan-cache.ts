/**
 * The import scan of a project kept across runs: esbuild bundling the
 * project (import-graph.ts) took a fifth of a warm `bdk validate` of the
 * real-shaped 250-tool project (about 0.2 s of wall time, the esbuild
 * service's start included), for a result that only changes with the
 * project's sources. An entry is kept per project and entry list; it is
 * used while every file the scan read has the same content and every folder
 * it resolved in the same names (a new `x.ts` beside `x.js`, an added
 * `index.ts`, can change what a specifier names), and `package.json` and
 * `tsconfig.json` are unchanged. A tsconfig that `extends` another file is
 * not followed here, so such a project is scanned each run.
 *
 * Only a scan of a project that links is kept (esbuild's metafile lists the
 * files it read); one that does not is scanned again, and its loader
 * reports the problem anyway.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { kitVersion } from "../kit-dir.ts";
import type { ImportScan, MissingExport } from "./import-graph.ts";
import { defaultTranspileCacheDir, packageVersion } from "./transpile-cache.ts";

const FORMAT = "bdk-import-scan-1";

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

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

function fileHash(file: string): string {
  try {
    return sha256(readFileSync(file, "utf8"));
  } catch {
    return "";
  }
}

function folderHash(folder: string): string {
  try {
    return sha256(readdirSync(folder).sort().join("\n"));
  } catch {
    return "";
  }
}

/** Each file's folder and the folders above it up to the project root (`../lib` may name `lib.ts` or `lib/index.ts`). */
function foldersOf(rootDir: string, files: string[]): Set<string> {
  const folders = new Set<string>([rootDir]);
  for (const file of files) {
    for (let folder = path.dirname(file); folder.startsWith(rootDir + path.sep) && !folders.has(folder); folder = path.dirname(folder)) folders.add(folder);
  }
  return folders;
}

/** Files besides the modules that decide what a specifier names. */
const settingsFiles = (rootDir: string) => [path.join(rootDir, "package.json"), path.join(rootDir, "tsconfig.json")];

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

  /** Whether the scan may be kept: a tsconfig `extends` names a file this cache does not watch. */
  static keeps(rootDir: string): boolean {
    let text: string;
    try {
      text = readFileSync(path.join(rootDir, "tsconfig.json"), "utf8");
    } catch {
      return true;
    }
    return !/"extends"/.test(text);
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
    for (const [file, hash] of Object.entries(entry.files)) if (fileHash(file) !== hash) return undefined;
    for (const [folder, hash] of Object.entries(entry.folders)) if (folderHash(folder) !== hash) return undefined;
    return {
      imports: new Map(entry.imports.map(([file, imported]) => [file, new Set(imported)])),
      specifiers: new Map(entry.specifiers.map(([file, named]) => [file, new Map(named)])),
      missingExports: entry.missingExports,
    };
  }

  /** Keeps `scan`, which read `inputs` (absolute project files). A cache that cannot be written costs the next run its speed only. */
  write(rootDir: string, entryFiles: string[], inputs: string[], scan: ImportScan): void {
    const files = [...new Set([...inputs, ...entryFiles, ...settingsFiles(rootDir)])];
    const entry: Entry = {
      format: FORMAT,
      salt: this.salt,
      entryFiles: [...entryFiles].sort(),
      files: Object.fromEntries(files.map((file) => [file, fileHash(file)])),
      folders: Object.fromEntries([...foldersOf(rootDir, files)].map((folder) => [folder, folderHash(folder)])),
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
