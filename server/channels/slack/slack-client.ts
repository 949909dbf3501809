/**
 * The Slack Web API calls the pack makes, through `@slack/web-api`.
 * `SLACK_API_URL` points the client elsewhere (a test server); the package
 * is imported on first use only.
 */
import type { SlackChannelOptions } from "../../authoring/channels-slack.ts";
import type { HostServices } from "../../authoring/types.ts";
import { BdkError } from "../../protocol/errors.ts";

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

async function webClient(token: string, env: Record<string, string | undefined>) {
  const { WebClient } = await import("@slack/web-api");
  const base = env.SLACK_API_URL;
  return new WebClient(token, {
    slackApiUrl: base ? (base.endsWith("/") ? base : `${base}/`) : undefined,
    retryConfig: { retries: 2 },
  });
}

export async function createSlackApi(token: string, env: Record<string, string | undefined>): Promise<SlackApi> {
  const client = await webClient(token, env);
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

/**
 * `host.slack`: the bot's own Slack access for host code (schedules, tools,
 * hooks), with `SLACK_BOT_TOKEN`; the client is created on first use.
 */
export function slackHostServices(env: Record<string, string | undefined>): HostServices["slack"] {
  let client: ReturnType<typeof webClient> | undefined;
  const connect = () => {
    const token = env.SLACK_BOT_TOKEN;
    if (!token) return Promise.reject(new BdkError("not_ready", "host.slack needs SLACK_BOT_TOKEN (the bot token, xoxb-...)."));
    client ??= webClient(token, env);
    return client;
  };
  return {
    getClient: connect,
    async postMessage(message) {
      const result = await (await connect()).chat.postMessage({ ...message, text: clip(message.text) });
      return { ts: result.ts };
    },
  };
}
