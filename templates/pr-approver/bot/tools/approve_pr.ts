import { prompt } from "@cursor/bdk";
import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
import { findPullRequest } from "../lib/fixtures.js";

export default defineTool({
  description: prompt`
    Approve a pull request, with a short review comment.
    Only after inspect_pr; never approve a draft or failing checks.
  `,
  // A write: evals (dry runs) get dryRunResult instead, and a person approves each call the model makes.
  effect: "write",
  needsApproval: true,
  inputSchema: z.object({
    prUrl: z.string().url(),
    comment: z.string().min(1).describe("The review comment shown on the PR"),
  }),
  dryRunResult: ({ prUrl }) => ({ approved: false, dryRun: true, prUrl }),
  async execute({ prUrl, comment }, ctx) {
    const pr = findPullRequest(prUrl);
    if (pr.draft) throw new Error(`${prUrl} is a draft; it cannot be approved.`);
    if (pr.checks !== "passing") throw new Error(`${prUrl} has ${pr.checks} checks; it cannot be approved.`);
    // Offline template: record the approval instead of calling GitHub (see README for the real call).
    await ctx.host.kv.put(`approval:${prUrl}`, { comment, at: ctx.now().toISOString() });
    return { approved: true, prUrl };
  },
});
