import { z } from "zod";
import type { LoadedTool } from "../../load/types.ts";
import { withConfinedRoot } from "../confined-fs.ts";
import { builtinTool } from "./define.ts";
import { PatternMatcher } from "./pattern-matcher.ts";
import { type WalkedFile, walkFolders } from "./walk.ts";

const MAX_RESULTS = 1000;
const PATHS_PER_REQUEST = 500;

const schema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('Glob relative to path: "**" any depth, "*" and "?" within a name, "[abc]" classes, "{a,b}" alternatives, "+(a|b)" extglobs, "\\\\" escapes'),
  path: z.string().optional().describe("Directory to search, relative to the workspace (default: the workspace root)"),
});

/** The files of `files` whose `relative` path the matcher's glob matches, in order, asked in requests of at most `PATHS_PER_REQUEST`. */
export async function matchingFiles(matcher: PatternMatcher, files: WalkedFile[]): Promise<WalkedFile[]> {
  const matched: WalkedFile[] = [];
  for (let start = 0; start < files.length; start += PATHS_PER_REQUEST) {
    const part = files.slice(start, start + PATHS_PER_REQUEST);
    const verdicts = await matcher.filter(part.map((file) => file.relative));
    matched.push(...part.filter((_, index) => verdicts[index]));
  }
  return matched;
}

export function globTool(): LoadedTool {
  return builtinTool(
    "glob",
    "Find workspace files whose path matches a glob (node_modules, .git and what .gitignore ignores are skipped). Returns workspace-relative paths.",
    schema,
    async ({ pattern, path: directory = "." }, ctx) => {
      const trimmed = pattern.replace(/^(\.\/)+/, "");
      if (trimmed.startsWith("/") || trimmed.split("/").includes("..")) {
        throw new Error(`glob ${JSON.stringify(pattern)} must be relative to path, without ".." segments`);
      }
      const matcher = await PatternMatcher.start({ glob: { pattern: trimmed, basename: false } }, `glob ${JSON.stringify(pattern)}`);
      try {
        return await withConfinedRoot(ctx.workspaceDir, async (root) => {
          const matches: string[] = [];
          // Nothing is opened: files of many folders go to the matcher together.
          let pending: WalkedFile[] = [];
          const flush = async () => {
            for (const file of await matchingFiles(matcher, pending)) matches.push(file.workspacePath);
            pending = [];
          };
          for await (const run of walkFolders(root, directory)) {
            pending.push(...run);
            if (pending.length >= PATHS_PER_REQUEST) await flush();
            if (matches.length > MAX_RESULTS) break;
          }
          await flush();
          if (matches.length <= MAX_RESULTS) return { matches };
          return { matches: matches.slice(0, MAX_RESULTS), truncated: `showing the first ${MAX_RESULTS} matches` };
        });
      } finally {
        matcher.close();
      }
    },
  );
}
