import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { LoadedTool } from "../../load/types.ts";
import { resolveInside } from "../workspace.ts";
import { builtinTool } from "./define.ts";
import { fileFilter } from "./glob-pattern.ts";
import { looksBinary, withFsErrors } from "./text-files.ts";
import { type WalkedFile, walkFiles, workspaceRelative } from "./walk.ts";

const MAX_MATCHES = 500;
const MAX_FILE_BYTES = 8 * 1024 * 1024;
const MAX_LINE_CHARS = 500;

const schema = z.object({
  pattern: z.string().min(1).describe("JavaScript regular expression source"),
  path: z.string().optional().describe("File or directory to search, relative to the workspace (default: the workspace root)"),
  glob: z.string().optional().describe('Only files matching this glob, e.g. "*.ts" (any depth) or "src/**/*.ts"'),
  ignoreCase: z.boolean().optional(),
});

function compile(pattern: string, ignoreCase: boolean | undefined): RegExp {
  try {
    return new RegExp(pattern, ignoreCase ? "i" : "");
  } catch (error) {
    throw new Error(`invalid pattern: ${(error as Error).message}`);
  }
}

/** The files to search, with the directory their `relative` path is relative to. */
async function* candidates(root: string, target: string): AsyncGenerator<WalkedFile & { base: string }> {
  if ((await stat(target)).isFile()) {
    yield { absolute: target, relative: path.basename(target), base: path.dirname(target) };
    return;
  }
  for await (const file of walkFiles(root, target)) yield { ...file, base: target };
}

export function grepTool(): LoadedTool {
  return builtinTool(
    "grep",
    "Search workspace text files for lines matching a regular expression. Returns { path, line, text } per match.",
    schema,
    async ({ pattern, path: searched = ".", glob, ignoreCase }, ctx) => {
      const regex = compile(pattern, ignoreCase);
      const include = glob ? fileFilter(glob) : () => true;
      const root = resolveInside(ctx.workspaceDir, ".");
      const target = resolveInside(ctx.workspaceDir, searched);
      await withFsErrors(searched, () => stat(target));

      const matches: Array<{ path: string; line: number; text: string }> = [];
      for await (const file of candidates(root, target)) {
        if (!include(file.relative)) continue;
        if ((await stat(file.absolute)).size > MAX_FILE_BYTES) continue;
        const content = await readFile(file.absolute);
        if (looksBinary(content)) continue;
        const lines = content.toString("utf8").split("\n");
        for (let index = 0; index < lines.length; index++) {
          if (!regex.test(lines[index])) continue;
          if (matches.length === MAX_MATCHES) return { matches, truncated: `showing the first ${MAX_MATCHES} matches` };
          matches.push({ path: workspaceRelative(root, path.join(file.base, file.relative)), line: index + 1, text: lines[index].slice(0, MAX_LINE_CHARS) });
        }
      }
      return { matches };
    },
  );
}
