import { brand } from "./brand.ts";
import type { Principal } from "../protocol/events.ts";
import type { ChannelDefinition } from "./channels.ts";
import type { HostServices } from "./types.ts";

export interface GitHubUser {
  login: string;
  type?: string;
  [key: string]: unknown;
}

/** A GitHub webhook payload (only the fields the pack relies on are typed). */
export interface GitHubWebhookEvent {
  action?: string;
  sender?: GitHubUser;
  repository?: { name: string; full_name: string; owner: { login: string } };
  [key: string]: unknown;
}

/**
 * A hook's first argument: the payload's own fields (so a hook written
 * `(event) => event.action ...` keeps working), plus the delivery's.
 */
export interface GitHubHookContext extends GitHubWebhookEvent {
  /** `X-GitHub-Event`, e.g. `pull_request`. */
  eventName: string;
  /** `X-GitHub-Delivery`. */
  deliveryId: string;
  payload: GitHubWebhookEvent;
  host: HostServices;
}

/** `onPullRequest`'s second argument: the payload's `pull_request`, with the event's `action`. */
export interface GitHubPullRequest {
  action: string;
  number: number;
  title: string;
  draft: boolean;
  user: GitHubUser;
  html_url: string;
  body?: string | null;
  [key: string]: unknown;
}

/** `onIssue`'s second argument: the payload's `issue`, with the event's `action`. */
export interface GitHubIssue {
  action: string;
  number: number;
  title: string;
  user: GitHubUser;
  html_url: string;
  body?: string | null;
  [key: string]: unknown;
}

/** `onComment`'s second argument: the `comment` (or `review`), its `action`, and the PR or issue it is on. */
export interface GitHubComment {
  action: string;
  body: string;
  user: GitHubUser;
  html_url?: string;
  /** The number of the PR or issue commented on. */
  number: number;
  isPullRequest: boolean;
  [key: string]: unknown;
}

/**
 * `null` ignores the event; `{ auth }` starts (or continues) a turn as that
 * principal (`auth: null` ignores it too). `message` replaces the pack's
 * description of the event; `context` is added after it.
 */
export type GitHubHookResult = { auth: Principal | null | undefined; message?: string; context?: string } | null | undefined;

/** Written `(ctx, pr) => ...`; the one-argument form `(event) => ...` reads the payload from `ctx`. */
export type GitHubHook<Subject = unknown> = (ctx: GitHubHookContext, subject: Subject) => GitHubHookResult | Promise<GitHubHookResult>;

export interface GitHubChannelOptions {
  /** The bot's GitHub login; comments mentioning it wake the agent. */
  botName: string;
  /** Default: `GITHUB_WEBHOOK_SECRET`. */
  webhookSecret?: string;
  onPullRequest?: GitHubHook<GitHubPullRequest>;
  onComment?: GitHubHook<GitHubComment>;
  onIssue?: GitHubHook<GitHubIssue>;
}

export interface GitHubChannelDefinition extends ChannelDefinition {
  pack: "github";
  github: GitHubChannelOptions;
}

/**
 * A principal that is also a hook result (`{ ...principal, auth: principal }`),
 * so both ways projects use `defaultGitHubAuth` work: `{ auth: defaultGitHubAuth(ctx) }`
 * and `onPullRequest: defaultGitHubAuth`.
 */
export type GitHubAuth = Principal & { auth: Principal };

/** Acts for the human who triggered the event (`user:github:<login>`); null for bots (including itself). */
export function defaultGitHubAuth(ctx: { sender?: GitHubUser }): GitHubAuth | null {
  const sender = ctx?.sender;
  if (!sender?.login || sender.type === "Bot") return null;
  const principal: Principal = { type: "user", id: `github:${sender.login}` };
  return { ...principal, auth: principal };
}

/**
 * `bot/channels/github.ts`: the GitHub webhook pack at `POST /v1/channels/<id>`.
 *
 * @example
 * export default githubChannel({
 *   botName: "acme-reviewer",
 *   onPullRequest: (ctx, pr) => (pr.draft ? null : { auth: defaultGitHubAuth(ctx) }),
 * });
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
