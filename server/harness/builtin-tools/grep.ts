import path from "node:path";
import { z } from "zod";
import type { LoadedTool } from "../../load/types.ts";
import { ConfinedPathError, openFileBeneath } from "../confined-fs.ts";
import { builtinTool } from "./define.ts";
import { matchingFiles } from "./glob.ts";
import { BATCH_BYTES, type LineMatch, PatternMatcher, PatternTimeoutError } from "./pattern-matcher.ts";
import { looksBinary } from "./text-files.ts";
import { type WalkedFile, walkFiles } from "./walk.ts";

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

/** The file `searched` names, or the files of the folder it names. */
async function* searchedFiles(root: string, searched: string): AsyncGenerator<WalkedFile> {
  let single: { relative: string } | undefined;
  try {
    const opened = await openFileBeneath(root, searched);
    await opened.file.close();
    single = opened;
  } catch (error) {
    if (!(error instanceof ConfinedPathError && error.code === "EISDIR")) throw error;
  }
  if (!single) {
    yield* walkFiles(root, searched);
    return;
  }
  const workspacePath = single.relative;
  yield { relative: path.posix.basename(workspacePath), workspacePath, open: async () => (await openFileBeneath(root, workspacePath)).file };
}

/** A file's text, undefined for binary files; `{ tooLarge }` with its size past the limit. */
async function readText(file: WalkedFile): Promise<string | { tooLarge: number } | undefined> {
  const handle = await file.open().catch(() => undefined);
  if (!handle) return undefined;
  try {
    const { size } = await handle.stat();
    if (size > MAX_FILE_BYTES) return { tooLarge: size };
    const content = await handle.readFile();
    return looksBinary(content) ? undefined : content.toString("utf8");
  } finally {
    await handle.close();
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
        const files = searchedFiles(ctx.workspaceDir, searched);
        for await (const file of glob ? matchingFiles(matcher, files) : files) {
          const text = await readText(file);
          if (text === undefined) continue;
          if (typeof text !== "string") {
            skipped.push({ path: file.workspacePath, bytes: text.tooLarge });
            continue;
          }
          batch.push({ path: file.workspacePath, text });
          batchBytes += text.length;
          if (batchBytes >= BATCH_BYTES) await flush();
          if (matches.length > MAX_MATCHES) break;
        }
        if (matches.length <= MAX_MATCHES) await flush();
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
