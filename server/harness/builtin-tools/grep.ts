import path from "node:path";
import { z } from "zod";
import type { LoadedTool } from "../../load/types.ts";
import { closeSoon, ConfinedPathError, type ConfinedRoot, type OpenedFile, readOpenFile, withConfinedRoot } from "../confined-fs.ts";
import { builtinTool } from "./define.ts";
import { matchingFiles } from "./glob.ts";
import { BATCH_BYTES, type LineMatch, PatternMatcher, PatternTimeoutError } from "./pattern-matcher.ts";
import { looksBinary } from "./text-files.ts";
import { type WalkedFile, walkFolders } from "./walk.ts";

const MAX_MATCHES = 500;
const MAX_FILE_BYTES = 8 * 1024 * 1024;
const MAX_LINE_CHARS = 500;
const MAX_SKIPPED_LISTED = 50;

const schema = z.object({
  pattern: z.string().min(1).describe("JavaScript regular expression source"),
  path: z.string().optional().describe("File or directory to search, relative to the workspace (default: the workspace root)"),
  glob: z.string().optional().describe('Only files matching this glob, e.g. "*.ts" (any depth) or "src/**/*.ts"'),
  ignoreCase: z.boolean().optional(),
});

/** Files read at once from one folder: enough to keep the file system busy, few enough to hold little text. */
const READ_AHEAD = 8;

/** The file `searched` names (one run of one file), or the runs of files of the folder it names. */
async function* searchedRuns(root: ConfinedRoot, searched: string): AsyncGenerator<WalkedFile[]> {
  let single: OpenedFile | undefined;
  try {
    single = await root.openFile(searched);
  } catch (error) {
    if (!(error instanceof ConfinedPathError && error.code === "EISDIR")) throw error;
  }
  if (!single) {
    yield* walkFolders(root, searched);
    return;
  }
  closeSoon(single.file);
  const workspacePath = single.relative;
  yield [{ relative: path.posix.basename(workspacePath), workspacePath, open: () => root.openFile(workspacePath).catch(() => undefined) }];
}

/** A file's text, undefined for binary files (or one that is gone); `{ tooLarge }` with its size past the limit. */
async function readText(file: WalkedFile): Promise<string | { tooLarge: number } | undefined> {
  const opened = await file.open();
  if (!opened) return undefined;
  try {
    if (opened.stats.size > MAX_FILE_BYTES) return { tooLarge: opened.stats.size };
    const content = await readOpenFile(opened.file, opened.stats.size).catch(() => undefined);
    return content === undefined || looksBinary(content) ? undefined : content.toString("utf8");
  } finally {
    closeSoon(opened.file);
  }
}

/** The texts of a run of files, in order, `READ_AHEAD` at a time. */
async function* runTexts(run: WalkedFile[]): AsyncGenerator<[WalkedFile, Awaited<ReturnType<typeof readText>>]> {
  for (let start = 0; start < run.length; start += READ_AHEAD) {
    const part = run.slice(start, start + READ_AHEAD);
    const texts = await Promise.all(part.map(readText));
    for (let index = 0; index < part.length; index++) yield [part[index], texts[index]];
  }
}

export function grepTool(): LoadedTool {
  return builtinTool(
    "grep",
    "Search workspace text files for lines matching a regular expression (node_modules, .git and what .gitignore ignores are skipped). " +
      `Returns { path, line, text } per match, and the files skipped for being larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB.`,
    schema,
    async ({ pattern, path: searched = ".", glob, ignoreCase }, ctx) => {
      const matcher = await PatternMatcher.start(
        { regex: { source: pattern, flags: ignoreCase ? "i" : "" }, glob: glob ? { pattern: glob, basename: !glob.includes("/") } : undefined },
        `grep pattern ${JSON.stringify(pattern)}`,
      );
      const matches: LineMatch[] = [];
      const skipped: { path: string; bytes: number }[] = [];
      let batch: { path: string; text: string }[] = [];
      let batchBytes = 0;
      const flush = async () => {
        matches.push(...(await matcher.search(batch, MAX_MATCHES + 1 - matches.length, MAX_LINE_CHARS)));
        batch = [];
        batchBytes = 0;
      };
      try {
        await withConfinedRoot(ctx.workspaceDir, async (root) => {
          runs: for await (const walked of searchedRuns(root, searched)) {
            // Filtered while the run's folder is held, so its files open through that handle.
            const run = glob ? await matchingFiles(matcher, walked) : walked;
            for await (const [file, text] of runTexts(run)) {
              if (text === undefined) continue;
              if (typeof text !== "string") {
                skipped.push({ path: file.workspacePath, bytes: text.tooLarge });
                continue;
              }
              batch.push({ path: file.workspacePath, text });
              batchBytes += text.length;
              if (batchBytes >= BATCH_BYTES) await flush();
              if (matches.length > MAX_MATCHES) break runs;
            }
          }
          if (matches.length <= MAX_MATCHES) await flush();
        });
      } catch (error) {
        if (error instanceof PatternTimeoutError) {
          throw new Error(`${error.message}: simplify it (nested quantifiers such as (a+)+ backtrack exponentially on lines they almost match)`);
        }
        throw error;
      } finally {
        matcher.close();
      }
      return {
        matches: matches.slice(0, MAX_MATCHES),
        ...(matches.length > MAX_MATCHES ? { truncated: `showing the first ${MAX_MATCHES} matches` } : {}),
        ...(skipped.length > 0
          ? {
              skipped: {
                reason: `larger than ${MAX_FILE_BYTES} bytes, not searched (use shell, e.g. grep -n, for these)`,
                files: skipped.slice(0, MAX_SKIPPED_LISTED),
                ...(skipped.length > MAX_SKIPPED_LISTED ? { more: skipped.length - MAX_SKIPPED_LISTED } : {}),
              },
            }
          : {}),
      };
    },
  );
}
