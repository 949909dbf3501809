import { slackChannel } from "@cursor/bdk/channels/slack";

/**
 * Slack Events API at POST /v1/channels/slack. Reads SLACK_BOT_TOKEN and
 * SLACK_SIGNING_SECRET (set envPrefix: "SUPPORT" to read SUPPORT_SLACK_BOT_TOKEN, ...).
 * A mention or DM wakes the bot; one thread is one session.
 */
export default slackChannel({
  reply: { mode: "stream", status: { reasoning: "Thinking…", tools: "Looking things up…" } },
});
