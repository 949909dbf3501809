import { brand } from "./brand.ts";
import type { ChannelDefinition } from "./channels.ts";

export interface SlackChannelOptions {
  /** Reads `<PREFIX>_SLACK_BOT_TOKEN` and `<PREFIX>_SLACK_SIGNING_SECRET` (no prefix: `SLACK_BOT_TOKEN`, ...). */
  envPrefix?: string;
  reply?: {
    mode: "post" | "stream";
    status?: { reasoning?: string; tools?: string; idle?: string[] };
  };
  /** `"slack.dmthread/v2"` gives each DM thread its own session (default: one session per DM). */
  continuation?: string;
}

export interface SlackChannelDefinition extends ChannelDefinition {
  pack: "slack";
  slack: SlackChannelOptions;
}

/**
 * `bot/channels/slack.ts`: the Slack Events API pack (mentions, DMs, watched channels; one thread = one session).
 *
 * @example
 * export default slackChannel({ reply: { mode: "stream" } });
 */
export function slackChannel(options: SlackChannelOptions = {}): SlackChannelDefinition {
  return brand("channel", { pack: "slack", slack: options, routes: [] });
}
