import path from "node:path";
import { z } from "zod";
import type { LoadedTool } from "../../load/types.ts";
import { resolveInside } from "../workspace.ts";
import { builtinTool } from "./define.ts";
import { globToRegExp } from "./glob-pattern.ts";
import { walkFiles, workspaceRelative } from "./walk.ts";

const MAX_RESULTS = 1000;

const schema = z.object({
  pattern: z.string().min(1).describe('Glob relative to path: "**" any depth, "*" and "?" within a name, "{a,b}" alternatives'),
  path: z.string().optional().describe("Directory to search, relative to the workspace (default: the workspace root)"),
});

export function globTool(): LoadedTool {
  return builtinTool(
    "glob",
    "Find workspace files whose path matches a glob (node_modules and .git are skipped). Returns workspace-relative paths.",
    schema,
    async ({ pattern, path: directory = "." }, ctx) => {
      const trimmed = pattern.replace(/^(\.\/)+/, "");
      if (trimmed.startsWith("/") || trimmed.split("/").includes("..")) {
        throw new Error(`glob ${JSON.stringify(pattern)} must be relative to path, without ".." segments`);
      }
      const regex = globToRegExp(trimmed);
      const root = resolveInside(ctx.workspaceDir, ".");
      const base = resolveInside(ctx.workspaceDir, directory);
      const matches: string[] = [];
      for await (const file of walkFiles(root, base)) {
        if (!regex.test(file.relative)) continue;
        if (matches.length === MAX_RESULTS) return { matches, truncated: `showing the first ${MAX_RESULTS} matches` };
        matches.push(workspaceRelative(root, path.join(base, file.relative)));
      }
      return { matches };
    },
  );
}
