import { z } from "zod";
import type { LoadedTool } from "../../load/types.ts";
import { ConfinedPathError, openFileBeneath } from "../confined-fs.ts";
import { builtinTool } from "./define.ts";
import { looksBinary } from "./text-files.ts";

const MAX_FILE_BYTES = 16 * 1024 * 1024;
const MAX_RETURNED_BYTES = 256 * 1024;

const schema = z.object({
  path: z.string().describe("File path relative to the workspace"),
  offset: z.number().int().min(1).optional().describe("First line to return (1-based)"),
  limit: z.number().int().min(1).optional().describe("Number of lines to return"),
});

async function readConfined(workspaceDir: string, file: string): Promise<Buffer> {
  const { file: handle } = await openFileBeneath(workspaceDir, file).catch((error: unknown) => {
    throw error instanceof ConfinedPathError && error.code === "EISDIR" ? new Error(`${JSON.stringify(file)} is a directory; use ls`) : error;
  });
  try {
    const { size } = await handle.stat();
    if (size > MAX_FILE_BYTES) {
      throw new Error(`${JSON.stringify(file)} is ${size} bytes, too large to read (limit ${MAX_FILE_BYTES}); use grep or shell`);
    }
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

export function readTool(): LoadedTool {
  return builtinTool(
    "read",
    "Read a text file in the workspace. Returns its content (or the lines from offset, up to limit) and its line count.",
    schema,
    async ({ path: file, offset = 1, limit }, ctx) => {
      const buffer = await readConfined(ctx.workspaceDir, file);
      if (looksBinary(buffer)) throw new Error(`${JSON.stringify(file)} looks like a binary file`);

      const lines = buffer.toString("utf8").split("\n");
      if (lines.at(-1) === "") lines.pop();
      const selected = lines.slice(offset - 1, limit === undefined ? undefined : offset - 1 + limit).join("\n");
      const bytes = Buffer.from(selected, "utf8");
      if (bytes.length <= MAX_RETURNED_BYTES) return { path: file, content: selected, totalLines: lines.length };
      return {
        path: file,
        content: bytes.subarray(0, MAX_RETURNED_BYTES).toString("utf8"),
        totalLines: lines.length,
        truncated: `showing the first ${MAX_RETURNED_BYTES} bytes; read the rest with offset and limit`,
      };
    },
  );
}
