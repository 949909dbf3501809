import { readFile, writeFile } from "node:fs/promises";
import { z } from "zod";
import type { LoadedTool } from "../../load/types.ts";
import { resolveInside } from "../workspace.ts";
import { builtinTool } from "./define.ts";
import { looksBinary, withFsErrors } from "./text-files.ts";

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
      const target = resolveInside(ctx.workspaceDir, file);
      const buffer = await withFsErrors(file, () => readFile(target));
      if (looksBinary(buffer)) throw new Error(`${name} looks like a binary file`);
      const parts = buffer.toString("utf8").split(oldString);
      const occurrences = parts.length - 1;
      if (occurrences === 0) throw new Error(`oldString was not found in ${name}`);
      if (occurrences > 1 && !replaceAll) {
        throw new Error(`oldString occurs ${occurrences} times in ${name}; include more surrounding text to make it unique, or set replaceAll`);
      }
      await withFsErrors(file, () => writeFile(target, parts.join(newString)));
      return { path: file, replacements: occurrences };
    },
    { effect: "write" },
  );
}
