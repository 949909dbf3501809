import { defineTool } from "bdk/tools";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";

/**
 * `execution: "agent"`: runs as a script inside the session workspace (listed
 * in its AGENTS.md), with JSON in and out, no `ctx.host` and no server secrets.
 */
export default defineTool({
  description: "Count the words of a file in the session workspace.",
  effect: "read",
  execution: "agent",
  inputSchema: z.object({ file: z.string().describe("Path relative to the workspace, e.g. README.md") }),
  async execute({ file }, ctx) {
    const text = await readFile(path.join(ctx.workspaceDir, file), "utf8");
    return { file, words: text.split(/\s+/).filter(Boolean).length };
  },
});
