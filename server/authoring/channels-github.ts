import { brand } from "./brand.ts";
import type { Principal } from "../protocol/events.ts";
import type { ChannelDefinition } from "./channels.ts";

/** A GitHub webhook payload (only the fields the pack relies on are typed). */
export interface GitHubWebhookEvent {
  action?: string;
  sender?: { login: string; type?: string };
  repository?: { name: string; full_name: string; owner: { login: string } };
  [key: string]: unknown;
}

/** `null` ignores the event; `{ auth }` starts (or continues) a turn as that principal. */
export type GitHubHookResult = { auth: Principal; message?: string } | null;
export type GitHubHook = (event: GitHubWebhookEvent) => GitHubHookResult | Promise<GitHubHookResult>;

export interface GitHubChannelOptions {
  /** The bot's GitHub login; comments mentioning it wake the agent. */
  botName: string;
  /** Default: `GITHUB_WEBHOOK_SECRET`. */
  webhookSecret?: string;
  onPullRequest?: GitHubHook;
  onComment?: GitHubHook;
  onIssue?: GitHubHook;
}

export interface GitHubChannelDefinition extends ChannelDefinition {
  pack: "github";
  github: GitHubChannelOptions;
}

/** Acts for the human who triggered the event; ignores bots (including itself). */
export const defaultGitHubAuth: GitHubHook = (event) => {
  const sender = event.sender;
  if (!sender || sender.type === "Bot") return null;
  return { auth: { type: "user", id: `github:${sender.login}` } };
};

/**
 * `bot/channels/github.ts`: the GitHub webhook pack at `POST /v1/channels/<id>`.
 *
 * @example
 * export default githubChannel({ botName: "acme-reviewer", onPullRequest: defaultGitHubAuth });
 */
export function githubChannel(options: GitHubChannelOptions): GitHubChannelDefinition {
  return brand("channel", { pack: "github", github: options, routes: [] });
}

const PR_KEY = /^pr:([^/\s#]+)\/([^/\s#]+)#(\d+)$/;

/** `"pr:owner/repo#42"` → `{ owner, repo, number }`, or null for anything else. */
export function parseGitHubPrContinuationKey(key: string): { owner: string; repo: string; number: number } | null {
  const match = PR_KEY.exec(key);
  if (!match) return null;
  return { owner: match[1], repo: match[2], number: Number(match[3]) };
}
