/**
 * GitHub webhook payloads: which hook an event goes to, the conversation it
 * belongs to (`pr:<owner>/<repo>#<n>` or `issue:<owner>/<repo>#<n>`), and the
 * message the agent gets when the hook does not write its own.
 */
import {
  defaultGitHubAuth,
  type GitHubChannelOptions,
  type GitHubHook,
  type GitHubWebhookEvent,
} from "../../authoring/channels-github.ts";

interface Numbered {
  number: number;
  title?: string;
  body?: string | null;
  html_url?: string;
  pull_request?: unknown;
}

const BODY_LIMIT = 4000;

/** The hook for an `X-GitHub-Event`, or undefined when the pack does not handle it. */
export function hookFor(eventName: string, options: GitHubChannelOptions): GitHubHook | undefined {
  switch (eventName) {
    case "pull_request":
      return options.onPullRequest;
    case "issue_comment":
    case "pull_request_review_comment":
    case "pull_request_review":
      return options.onComment ?? mentionHook(options.botName);
    case "issues":
      return options.onIssue;
    default:
      return undefined;
  }
}

/** Without `onComment`: a new comment that mentions `@<botName>`, by a person, wakes the agent. */
function mentionHook(botName: string): GitHubHook {
  const mention = new RegExp(`@${botName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i");
  return (event) => {
    const comment = (event.comment ?? event.review) as { body?: string | null } | undefined;
    if (!["created", "submitted"].includes(event.action ?? "") || !mention.test(comment?.body ?? "")) return null;
    return defaultGitHubAuth(event);
  };
}

/** The PR or issue an event is about. */
function subjectOf(event: GitHubWebhookEvent): { item: Numbered; isPullRequest: boolean } | undefined {
  const pull = event.pull_request as Numbered | undefined;
  if (pull?.number !== undefined) return { item: pull, isPullRequest: true };
  const issue = event.issue as Numbered | undefined;
  if (issue?.number !== undefined) return { item: issue, isPullRequest: issue.pull_request !== undefined };
  return undefined;
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

export function conversationOf(eventName: string, event: GitHubWebhookEvent): GitHubConversation | undefined {
  const subject = subjectOf(event);
  const repository = event.repository;
  if (!subject || !repository) return undefined;
  const owner = repository.owner.login;
  const repo = repository.name;
  const { item, isPullRequest } = subject;
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
