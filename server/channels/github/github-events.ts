/**
 * GitHub webhook payloads: which hook an event goes to and what it is
 * given, the conversation it belongs to (`pr:<owner>/<repo>#<n>` or
 * `issue:<owner>/<repo>#<n>`), and the message the agent gets when the hook
 * does not write its own.
 */
import { z } from "zod";
import {
  defaultGitHubAuth,
  type GitHubChannelOptions,
  type GitHubComment,
  type GitHubHook,
  type GitHubWebhookEvent,
} from "../../authoring/channels-github.ts";
import { formatIssues } from "../../authoring/validate-schema.ts";
import { BdkError } from "../../protocol/errors.ts";

interface Numbered {
  number: number;
  title?: string;
  body?: string | null;
  html_url?: string;
  pull_request?: unknown;
}

export type GitHubHookName = "onPullRequest" | "onComment" | "onIssue";

const BODY_LIMIT = 4000;

const HOOK_BY_EVENT: Record<string, GitHubHookName> = {
  pull_request: "onPullRequest",
  issue_comment: "onComment",
  pull_request_review_comment: "onComment",
  pull_request_review: "onComment",
  issues: "onIssue",
};

/** The hook an `X-GitHub-Event` goes to (named, for messages), or undefined when the pack does not handle it. */
export function hookFor(eventName: string, options: GitHubChannelOptions): { name: GitHubHookName; hook: GitHubHook } | undefined {
  const name = HOOK_BY_EVENT[eventName];
  if (!name) return undefined;
  // Each hook is called with the subject of its own event kind (subjectFor), so the erased type is safe.
  const hook = (options[name] as GitHubHook | undefined) ?? (name === "onComment" ? mentionHook(options.botName) : undefined);
  return hook && { name, hook };
}

/** Without `onComment`: a new comment that mentions `@<botName>`, by a person, wakes the agent. */
function mentionHook(botName: string): GitHubHook {
  const mention = new RegExp(`@${botName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i");
  return (ctx, subject) => {
    const comment = subject as GitHubComment;
    if (!["created", "submitted"].includes(comment.action) || !mention.test(comment.body)) return null;
    return defaultGitHubAuth(ctx);
  };
}

const repositorySchema = z.object({ name: z.string().min(1), owner: z.object({ login: z.string().min(1) }) });

/** The PR or issue an event is about. */
function subjectOf(event: GitHubWebhookEvent): { item: Numbered; isPullRequest: boolean } | undefined {
  const pull = event.pull_request as Numbered | undefined;
  if (typeof pull?.number === "number") return { item: pull, isPullRequest: true };
  const issue = event.issue as Numbered | undefined;
  if (typeof issue?.number === "number") return { item: issue, isPullRequest: issue.pull_request !== undefined };
  return undefined;
}

/**
 * Refuses (400, naming the field) a payload of a handled event that lacks
 * what the conversation is keyed by: the repository and its owner, the PR or issue.
 */
export function checkPayload(eventName: string, event: GitHubWebhookEvent): void {
  const repository = z.object({ repository: repositorySchema }).safeParse(event);
  if (!repository.success) throw new BdkError("invalid_request", `The ${eventName} payload is incomplete: ${formatIssues(repository.error)}.`);
  if (!subjectOf(event)) throw new BdkError("invalid_request", `The ${eventName} payload has neither pull_request.number nor issue.number.`);
}

/** A hook's second argument: the PR, the comment or the issue, with the event's action. */
export function subjectFor(name: GitHubHookName, event: GitHubWebhookEvent): Record<string, unknown> {
  const action = event.action ?? "";
  const { item, isPullRequest } = subjectOf(event)!;
  if (name === "onComment") {
    const comment = (event.comment ?? event.review ?? {}) as Record<string, unknown>;
    return { ...comment, action, body: typeof comment.body === "string" ? comment.body : "", number: item.number, isPullRequest };
  }
  const subject: Record<string, unknown> = { ...item, action };
  if (name === "onPullRequest") subject.draft = subject.draft === true;
  return subject;
}

/** Whether the bot itself sent the event (its own comments and reviews never wake it). */
export function sentByBot(event: GitHubWebhookEvent, botName: string): boolean {
  const login = event.sender?.login?.toLowerCase();
  return login === botName.toLowerCase() || login === `${botName.toLowerCase()}[bot]`;
}

export interface GitHubConversation {
  continuationToken: string;
  title: string;
  state: { event: string; action?: string; owner: string; repo: string; number: number; url?: string };
}

/** The conversation of a payload that passed `checkPayload`. */
export function conversationOf(eventName: string, event: GitHubWebhookEvent): GitHubConversation {
  const { item, isPullRequest } = subjectOf(event)!;
  const owner = event.repository!.owner.login;
  const repo = event.repository!.name;
  return {
    continuationToken: `${isPullRequest ? "pr" : "issue"}:${owner}/${repo}#${item.number}`,
    title: `${owner}/${repo}#${item.number}${item.title ? ` ${item.title}` : ""}`.slice(0, 120),
    state: { event: eventName, action: event.action, owner, repo, number: item.number, url: item.html_url },
  };
}

/** A plain description of the event for the model. */
export function describeEvent(eventName: string, event: GitHubWebhookEvent, conversation: GitHubConversation): string {
  const { owner, repo, number, url } = conversation.state;
  const where = `${owner}/${repo}#${number}`;
  const who = event.sender?.login ? `@${event.sender.login}` : "someone";
  const item = subjectOf(event)!.item;
  const comment = (event.comment ?? event.review) as { body?: string | null; html_url?: string } | undefined;
  if (comment?.body) {
    return [`${who} commented on ${where} ("${item.title ?? ""}"):`, "", clip(comment.body), "", comment.html_url ?? url ?? ""]
      .join("\n")
      .trim();
  }
  const kind = eventName === "pull_request" ? "Pull request" : "Issue";
  const lines = [`${kind} ${where} was ${event.action ?? "updated"} by ${who}: "${item.title ?? ""}"`, url ?? ""];
  if (item.body) lines.push("", clip(item.body));
  return lines.join("\n").trim();
}

function clip(text: string): string {
  return text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}…` : text;
}
