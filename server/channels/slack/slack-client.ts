/**
 * The Slack Web API calls the pack makes, through `@slack/web-api`.
 * `SLACK_API_URL` points the client elsewhere (a test server); the package
 * is imported on first use only.
 */
import type { SlackChannelOptions } from "../../authoring/channels-slack.ts";

export interface SlackApi {
  postMessage(message: { channel: string; thread_ts?: string; text: string }): Promise<{ ts?: string }>;
  update(message: { channel: string; ts: string; text: string }): Promise<void>;
}

/** Slack refuses message text beyond 40,000 characters. */
const MAX_TEXT = 39_000;

/** `<PREFIX>_SLACK_BOT_TOKEN` and `<PREFIX>_SLACK_SIGNING_SECRET` (no prefix: `SLACK_BOT_TOKEN`, ...). */
export function slackCredentials(options: SlackChannelOptions, env: Record<string, string | undefined>) {
  const prefix = options.envPrefix ? options.envPrefix.replace(/_*$/, "_") : "";
  return {
    botTokenName: `${prefix}SLACK_BOT_TOKEN`,
    signingSecretName: `${prefix}SLACK_SIGNING_SECRET`,
    botToken: env[`${prefix}SLACK_BOT_TOKEN`],
    signingSecret: env[`${prefix}SLACK_SIGNING_SECRET`],
  };
}

export async function createSlackApi(token: string, env: Record<string, string | undefined>): Promise<SlackApi> {
  const { WebClient } = await import("@slack/web-api");
  const base = env.SLACK_API_URL;
  const client = new WebClient(token, {
    slackApiUrl: base ? (base.endsWith("/") ? base : `${base}/`) : undefined,
    retryConfig: { retries: 2 },
  });
  return {
    async postMessage(message) {
      const result = await client.chat.postMessage({ ...message, text: clip(message.text) });
      return { ts: result.ts };
    },
    async update(message) {
      await client.chat.update({ ...message, text: clip(message.text) });
    },
  };
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}
