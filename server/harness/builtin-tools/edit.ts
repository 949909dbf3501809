import { constants } from "node:fs";
import { z } from "zod";
import type { LoadedTool } from "../../load/types.ts";
import { openFileBeneath } from "../confined-fs.ts";
import { builtinTool } from "./define.ts";
import { looksBinary } from "./text-files.ts";

const schema = z.object({
  path: z.string().describe("File path relative to the workspace"),
  oldString: z.string().min(1).describe("Exact text to replace; must be unique in the file unless replaceAll is set"),
  newString: z.string().describe("Replacement text"),
  replaceAll: z.boolean().optional().describe("Replace every occurrence"),
});

export function editTool(): LoadedTool {
  return builtinTool(
    "edit",
    "Replace exact text in a workspace file. oldString must occur exactly once unless replaceAll is true.",
    schema,
    async ({ path: file, oldString, newString, replaceAll }, ctx) => {
      const name = JSON.stringify(file);
      if (oldString === newString) throw new Error("oldString and newString are identical; nothing to change");
      // Read and rewritten through one handle: the file changed is the file read.
      const { file: handle } = await openFileBeneath(ctx.workspaceDir, file, { flags: constants.O_RDWR });
      try {
        const buffer = await handle.readFile();
        if (looksBinary(buffer)) throw new Error(`${name} looks like a binary file`);
        const parts = buffer.toString("utf8").split(oldString);
        const occurrences = parts.length - 1;
        if (occurrences === 0) throw new Error(`oldString was not found in ${name}`);
        if (occurrences > 1 && !replaceAll) {
          throw new Error(`oldString occurs ${occurrences} times in ${name}; include more surrounding text to make it unique, or set replaceAll`);
        }
        const updated = Buffer.from(parts.join(newString), "utf8");
        await handle.truncate(0);
        await handle.write(updated, 0, updated.length, 0);
        return { path: file, replacements: occurrences };
      } finally {
        await handle.close();
      }
    },
    { effect: "write" },
  );
}
