/**
 * What a Slack Events API payload asks of the agent: answer the URL
 * challenge, ignore it, or take a message into the conversation of its
 * thread. Messages from bots (this one included) are ignored, so replies
 * never wake the agent.
 */

export const SLACK_DM_THREADS = "slack.dmthread/v2";

/** Where replies to a message go; kept as the session's channel state. */
export interface SlackThreadState {
  team: string;
  channel: string;
  /** Absent for a DM conversation answered at top level. */
  threadTs?: string;
  user: string;
}

export type SlackInbound =
  | { kind: "challenge"; challenge: string }
  | { kind: "ignore"; reason: string }
  | { kind: "message"; eventId: string; conversationKey: string; text: string; state: SlackThreadState };

interface SlackEvent {
  type?: string;
  subtype?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  channel?: string;
  channel_type?: string;
}

interface SlackPayload {
  type?: string;
  challenge?: string;
  team_id?: string;
  event_id?: string;
  event?: SlackEvent;
  authorizations?: { user_id?: string }[];
}

/** Subtypes that are still a person writing to the agent. */
const HUMAN_SUBTYPES = new Set(["file_share", "thread_broadcast"]);

export function parseSlackPayload(raw: unknown, options: { dmThreads: boolean }): SlackInbound {
  const payload = (raw ?? {}) as SlackPayload;
  if (payload.type === "url_verification") return { kind: "challenge", challenge: String(payload.challenge ?? "") };
  if (payload.type !== "event_callback" || !payload.event) return { kind: "ignore", reason: `payload type ${payload.type}` };
  const event = payload.event;
  const botUser = payload.authorizations?.[0]?.user_id;
  if (event.bot_id || (event.subtype && !HUMAN_SUBTYPES.has(event.subtype))) return { kind: "ignore", reason: "bot message or edit" };
  if (!event.user || !event.channel || !event.ts || (botUser && event.user === botUser)) {
    return { kind: "ignore", reason: "not a message from a person" };
  }

  const text = stripMention(event.text ?? "", botUser);
  const team = payload.team_id ?? "";
  const base = { team, channel: event.channel, user: event.user };
  const threadRoot = event.thread_ts ?? event.ts;
  const eventId = payload.event_id ?? `${event.channel}:${event.ts}`;

  if (event.type === "app_mention") {
    return message(eventId, `slack:${team}:${event.channel}:${threadRoot}`, text, { ...base, threadTs: threadRoot });
  }
  if (event.type !== "message") return { kind: "ignore", reason: `event type ${event.type}` };
  if (event.channel_type === "im") {
    return options.dmThreads
      ? message(eventId, `slack:${team}:${event.channel}:${threadRoot}`, text, { ...base, threadTs: threadRoot })
      : message(eventId, `slack:${team}:${event.channel}`, text, { ...base, threadTs: event.thread_ts });
  }
  // A mention in a watched channel also arrives as app_mention: that one is taken.
  if (botUser && (event.text ?? "").includes(`<@${botUser}>`)) return { kind: "ignore", reason: "handled as app_mention" };
  return message(eventId, `slack:${team}:${event.channel}:${threadRoot}`, text, { ...base, threadTs: threadRoot });
}

function message(eventId: string, conversationKey: string, text: string, state: SlackThreadState): SlackInbound {
  if (!text) return { kind: "ignore", reason: "empty message" };
  return { kind: "message", eventId, conversationKey, text, state };
}

function stripMention(text: string, botUser: string | undefined): string {
  return (botUser ? text.split(`<@${botUser}>`).join("") : text).trim();
}

/** A whole-message `stop` (or `@agent stop`) stops the thread's running turn. */
export function isStopCommand(text: string): boolean {
  return text.trim().toLowerCase() === "stop";
}
