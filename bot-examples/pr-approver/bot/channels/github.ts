import { defaultGitHubAuth, githubChannel } from "bdk/channels/github";

interface PullRequest {
  html_url: string;
  title: string;
  draft?: boolean;
}

/**
 * GitHub webhook at POST /v1/channels/github: a pull request opened or
 * pushed to starts (or continues) the review conversation of that PR,
 * `pr:<owner>/<repo>#<number>`. Comments mentioning @pr-approver wake it too.
 */
export default githubChannel({
  botName: "pr-approver",
  onPullRequest(event) {
    if (event.action !== "opened" && event.action !== "synchronize") return null;
    const decision = defaultGitHubAuth(event);
    if (!decision) return null;
    const pr = event.pull_request as PullRequest;
    const pushed = event.action === "synchronize" ? " New commits were pushed." : "";
    return {
      ...decision,
      message: `Review ${pr.html_url} ("${pr.title}").${pushed} Call inspect_pr first, then submit_review with your verdict.`,
    };
  },
});
