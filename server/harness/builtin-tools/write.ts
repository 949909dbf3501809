import { z } from "zod";
import type { LoadedTool } from "../../load/types.ts";
import { writeFileBeneath } from "../confined-fs.ts";
import { builtinTool } from "./define.ts";

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
      await writeFileBeneath(ctx.workspaceDir, file, content);
      return { path: file, bytes: Buffer.byteLength(content) };
    },
    { effect: "write" },
  );
}
