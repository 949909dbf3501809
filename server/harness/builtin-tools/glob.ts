import { z } from "zod";
import type { LoadedTool } from "../../load/types.ts";
import { builtinTool } from "./define.ts";
import { PatternMatcher } from "./pattern-matcher.ts";
import { type WalkedFile, walkFiles } from "./walk.ts";

const MAX_RESULTS = 1000;
const PATHS_PER_REQUEST = 500;

const schema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('Glob relative to path: "**" any depth, "*" and "?" within a name, "[abc]" classes, "{a,b}" alternatives, "+(a|b)" extglobs, "\\\\" escapes'),
  path: z.string().optional().describe("Directory to search, relative to the workspace (default: the workspace root)"),
});

/** The files of `files` whose `relative` path the matcher's glob matches, in order, asked in batches. */
export async function* matchingFiles(matcher: PatternMatcher, files: AsyncIterable<WalkedFile>): AsyncGenerator<WalkedFile> {
  let batch: WalkedFile[] = [];
  const flush = async () => {
    const verdicts = await matcher.filter(batch.map((file) => file.relative));
    const matched = batch.filter((_, index) => verdicts[index]);
    batch = [];
    return matched;
  };
  for await (const file of files) {
    batch.push(file);
    if (batch.length === PATHS_PER_REQUEST) yield* await flush();
  }
  yield* await flush();
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
        const matches: string[] = [];
        for await (const file of matchingFiles(matcher, walkFiles(ctx.workspaceDir, directory))) {
          if (matches.length === MAX_RESULTS) return { matches, truncated: `showing the first ${MAX_RESULTS} matches` };
          matches.push(file.workspacePath);
        }
        return { matches };
      } finally {
        matcher.close();
      }
    },
  );
}
