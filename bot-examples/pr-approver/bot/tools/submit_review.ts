import { prompt } from "bdk";
import { defineTool } from "bdk/tools";
import { z } from "zod";

export default defineTool({
  description: prompt`
    Submit a review on a pull request: approve, request changes, or comment.
    Only after inspect_pr; never approve a draft.
  `,
  effect: "write",
  needsApproval: true,
  inputSchema: z.object({
    prUrl: z.string().url(),
    verdict: z.enum(["approve", "request_changes", "comment"]),
    body: z.string().min(1).describe("The review text shown on the PR"),
  }),
  dryRunResult: ({ prUrl, verdict }) => ({ submitted: false, dryRun: true, prUrl, verdict }),
  async execute({ prUrl, verdict, body }, ctx) {
    // Offline example: record the review instead of calling GitHub.
    await ctx.host.kv.put(`review:${prUrl}`, { verdict, body, at: ctx.now().toISOString() });
    return { submitted: true, prUrl, verdict };
  },
});
