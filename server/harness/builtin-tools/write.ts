import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { LoadedTool } from "../../load/types.ts";
import { resolveInside } from "../workspace.ts";
import { builtinTool } from "./define.ts";
import { withFsErrors } from "./text-files.ts";

const schema = z.object({
  path: z.string().describe("File path relative to the workspace"),
  content: z.string().describe("The complete new content of the file"),
});

export function writeTool(): LoadedTool {
  return builtinTool(
    "write",
    "Create or overwrite a file in the workspace (parent folders are created).",
    schema,
    async ({ path: file, content }, ctx) => {
      const target = resolveInside(ctx.workspaceDir, file);
      await withFsErrors(file, async () => {
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, content);
      });
      return { path: file, bytes: Buffer.byteLength(content) };
    },
    { effect: "write" },
  );
}
