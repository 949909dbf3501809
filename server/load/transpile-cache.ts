/**
 * Transpiled project modules kept across runs, so a second `bdk validate`
 * (or `serve`, `dev`) of an unchanged project does not transpile again. An
 * entry is keyed by what decides the output: the source text (not its
 * mtime: a checkout, a `touch` or a rebuild changes mtimes, an edit changes
 * the text), the file's extension (`.ts` or `.tsx` parse differently), the
 * transform options, and the versions of the kit, jiti and esbuild. An entry
 * holds the code and, when the transpiler moved lines, each line's source line.
 *
 * Several processes share the folder (a `bdk dev` and a `bdk validate` of
 * the same project): an entry is written to a temporary file and renamed
 * into place, so a reader sees a whole entry or none. An entry that does not
 * verify (truncated, edited, another format) is a miss and is rewritten.
 * The folder is pruned to a bounded size, least recently used first (an
 * entry's mtime is when it was written or last read, refreshed at most
 * daily; the import scans kept in `scans/` are pruned with the modules).
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

/** What jiti hands its transform (`TransformOptions`): the source, its file, and options, which are part of the key. */
export interface TranspileInput {
  source: string;
  filename?: string;
}

export interface TranspileOutput {
  code: string;
  error?: unknown;
  /** The source line of each line of `code`, when the transpiler moved lines (esbuild-transform.ts). */
  lines?: readonly number[];
}

export interface TranspileCacheOptions {
  dir: string;
  /** Versions and settings every key includes (the kit's and jiti's versions). */
  salt: string;
  /** Entries beyond this many bytes in total are pruned, oldest use first. */
  maxBytes?: number;
}

export interface TranspileCacheStats {
  hits: number;
  misses: number;
}

const FORMAT = "bdk-transpiled-2";
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
/** A hit refreshes the entry's mtime (its place in the pruning order) when it is older than this, not on every read. */
const TOUCH_AFTER_MS = 24 * 60 * 60 * 1000;
/** Pruning keeps this share of the bound, so that it does not run again on the next store. */
const PRUNE_TO = 0.75;

/** `$XDG_CACHE_HOME/bdk/transpiled`, else `~/.cache/bdk/transpiled`, else under the OS temporary folder. */
export function defaultTranspileCacheDir(env: Record<string, string | undefined> = process.env): string {
  if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) return path.join(env.XDG_CACHE_HOME, "bdk", "transpiled");
  let home: string | undefined;
  try {
    home = os.homedir();
  } catch {
    // No home folder for this user (a container's nobody): the temporary folder holds the cache.
  }
  // The temporary folder is shared by every user: the fallback is one folder per uid (created 0700, see TranspileCache).
  return home ? path.join(home, ".cache", "bdk", "transpiled") : path.join(os.tmpdir(), `bdk-transpiled-${process.getuid?.() ?? "user"}`);
}

const require = createRequire(import.meta.url);

/** An installed package's version (the caches' keys include the versions of what transpiles and scans). */
export const packageVersion = (name: string) => (require(`${name}/package.json`) as { version: string }).version;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Marks a cache entry (a transpiled module, a kept import scan) as used: its mtime is its place in the pruning order. */
export function touchUsed(file: string): void {
  try {
    if (Date.now() - statSync(file).mtimeMs > TOUCH_AFTER_MS) {
      const now = new Date();
      utimesSync(file, now, now);
    }
  } catch {
    // Pruned by another process meanwhile: the entry was read already.
  }
}

export class TranspileCache {
  readonly stats: TranspileCacheStats = { hits: 0, misses: 0 };
  private readonly maxBytes: number;
  /** False once the folder turned out not to be writable: transpiling then goes on without the cache. */
  private usable = true;
  private pruned = false;
  /**
   * Outputs `fillAhead` made, by source file, until `transform` takes them:
   * one per file of the latest load, so that a long-running `bdk dev` does
   * not keep one for every text a file ever had.
   */
  private readonly ahead = new Map<string, { entry: string; output: TranspileOutput }>();

  constructor(private readonly options: TranspileCacheOptions) {
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  }

  /** The cached output for `input`, else `transpile(input)` (stored unless it failed). */
  transform<Input extends TranspileInput>(input: Input, transpile: (input: Input) => TranspileOutput): TranspileOutput {
    const file = this.entryFile(input);
    // Counted as a miss by `fillAhead`.
    const ahead = this.takeAhead(input.filename, file);
    if (ahead) return ahead;
    const cached = this.read(file);
    if (cached !== undefined) {
      this.stats.hits++;
      return cached;
    }
    this.stats.misses++;
    const output = transpile(input);
    if (!output.error) this.write(file, output);
    return output;
  }

  /**
   * For a load about to import `inputs`: stores `transpile(input)` for each
   * that has no entry, and keeps it in memory for the `transform` of the
   * same input in this process (undefined: it cannot be done ahead,
   * `transform` will do it). What an earlier load kept and did not use (a
   * file since edited, removed, or not imported after all) is dropped.
   */
  async fillAhead<Input extends TranspileInput & { filename: string }>(inputs: Input[], transpile: (input: Input) => Promise<TranspileOutput | undefined>): Promise<void> {
    this.ahead.clear();
    await Promise.all(
      inputs.map(async (input) => {
        const file = this.entryFile(input);
        if (existsSync(file)) return;
        const output = await transpile(input);
        if (!output || output.error) return;
        this.stats.misses++;
        this.ahead.set(input.filename, { entry: file, output });
        this.write(file, output);
      }),
    );
  }

  /** The output `fillAhead` made for this text of `filename` (the entry file), once. */
  private takeAhead(filename: string | undefined, entry: string): TranspileOutput | undefined {
    if (filename === undefined) return undefined;
    const ahead = this.ahead.get(filename);
    if (ahead?.entry !== entry) return undefined;
    this.ahead.delete(filename);
    return ahead.output;
  }

  /** How many outputs `fillAhead` made are still waiting for their `transform`. */
  get heldAhead(): number {
    return this.ahead.size;
  }

  private entryFile(input: TranspileInput): string {
    const { source, filename, ...options } = input;
    const settings = Object.entries(options).sort(([a], [b]) => (a < b ? -1 : 1));
    // The path is part of the key: the transform writes it into its output (import.meta.url, .dirname, .filename become constants),
    // so the same text at two paths (a copied project, two worktrees) must not share an entry.
    const key = sha256(JSON.stringify([FORMAT, this.options.salt, filename ?? "", settings, source]));
    return path.join(this.options.dir, key.slice(0, 2), `${key}.js`);
  }

  /** The entry when it verifies: its first line is the format and the hash of the rest, the second the line table (or empty). */
  private read(file: string): TranspileOutput | undefined {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return undefined;
    }
    const newline = text.indexOf("\n");
    const rest = text.slice(newline + 1);
    if (newline === -1 || text.slice(0, newline) !== `// ${FORMAT} ${sha256(rest)}`) return undefined;
    const tableEnd = rest.indexOf("\n");
    if (tableEnd === -1) return undefined;
    touchUsed(file);
    const table = rest.slice(0, tableEnd);
    return { code: rest.slice(tableEnd + 1), ...(table ? { lines: table.split(",").map(Number) } : {}) };
  }

  private write(file: string, output: TranspileOutput): void {
    if (!this.usable) return;
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const rest = `${output.lines?.join(",") ?? ""}\n${output.code}`;
      writeFileSync(temporary, `// ${FORMAT} ${sha256(rest)}\n${rest}`);
      renameSync(temporary, file);
    } catch {
      // A read-only or full disk costs the next run its speed, not this one its load.
      this.usable = false;
      rmSync(temporary, { force: true });
      return;
    }
    if (!this.pruned) {
      this.pruned = true;
      this.prune();
    }
  }

  /** Once per process that stored something: the least recently used entries go until the folder is within bounds. */
  private prune(): void {
    const entries: { file: string; size: number; used: number }[] = [];
    try {
      for (const bucket of readdirSync(this.options.dir)) {
        const folder = path.join(this.options.dir, bucket);
        for (const name of readdirSync(folder)) {
          const file = path.join(folder, name);
          const stat = statSync(file, { throwIfNoEntry: false });
          if (stat?.isFile()) entries.push({ file, size: stat.size, used: stat.mtimeMs });
        }
      }
    } catch {
      // Another process pruned a bucket while this one listed it: its own pruning did the work.
      return;
    }
    let total = entries.reduce((sum, entry) => sum + entry.size, 0);
    if (total <= this.maxBytes) return;
    entries.sort((a, b) => a.used - b.used);
    for (const entry of entries) {
      if (total <= this.maxBytes * PRUNE_TO) break;
      try {
        unlinkSync(entry.file);
      } catch {
        // Already removed by another process.
      }
      total -= entry.size;
    }
  }
}
