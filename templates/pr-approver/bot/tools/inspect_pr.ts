import { prompt } from "@cursor/bdk";
import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
import { findPullRequest } from "../lib/fixtures.js";

export default defineTool({
  description: prompt`
    Inspect a pull request before reviewing it.
    Returns its title, author, draft state, CI checks, complexity (trivial, moderate or large) and the changed files.
  `,
  effect: "read",
  inputSchema: z.object({ prUrl: z.string().url().describe("The pull request URL") }),
  async execute({ prUrl }) {
    return findPullRequest(prUrl);
  },
});
