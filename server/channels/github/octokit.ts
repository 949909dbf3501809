/**
 * `host.github.getOctokit()`: an `@octokit/rest` client authenticated with
 * `GITHUB_TOKEN`. `GITHUB_API_URL` points it elsewhere (GitHub Enterprise, a
 * test server). The package is imported on first use only.
 */
import { BdkError } from "../../protocol/errors.ts";

export const DEFAULT_GITHUB_API_URL = "https://api.github.com";

export function githubClientFactory(env: Record<string, string | undefined>): () => Promise<unknown> {
  let client: Promise<unknown> | undefined;
  return () => {
    const token = env.GITHUB_TOKEN;
    if (!token) {
      return Promise.reject(new BdkError("not_ready", "host.github needs GITHUB_TOKEN (a token or app installation token with access to the repository)."));
    }
    client ??= import("@octokit/rest").then(
      ({ Octokit }) => new Octokit({ auth: token, baseUrl: env.GITHUB_API_URL || DEFAULT_GITHUB_API_URL, userAgent: "bdk" }),
    );
    return client;
  };
}
