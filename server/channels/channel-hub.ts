/**
 * The channels of one agent: conversations behind continuation tokens,
 * `send`/`receive`, the arguments a route handler gets, the Slack and GitHub
 * packs, and delivery events. HTTP parsing and auth stay in `server/http`.
 */
import type { ChannelDefinition, ChannelEventContext, ReceiveInput, RouteHandlerArgs, SendOptions, SessionHandle } from "../authoring/channels.ts";
import type { GitHubChannelDefinition } from "../authoring/channels-github.ts";
import type { SlackChannelDefinition } from "../authoring/channels-slack.ts";
import { createArtifactsApi } from "../host/artifacts-api.ts";
import type { Logger } from "../host/logger.ts";
import { BdkError, messageOf } from "../protocol/errors.ts";
import type { Principal } from "../protocol/events.ts";
import type { Clock } from "../schedules/clock.ts";
import type { SessionRuntime } from "../sessions/session-runtime.ts";
import type { AsyncStore } from "../store/async-store.ts";
import type { SessionRow } from "../store/types.ts";
import { type ConversationMessage, type ConversationTurn, sendToConversation, sessionHandle } from "./conversations.ts";
import { ChannelDelivery, type PackDelivery } from "./delivery.ts";
import { DeliveryLedger } from "./delivery-ledger.ts";
import { handleGitHubRequest } from "./github/github-ingress.ts";
import type { PackRequest } from "./pack-request.ts";
import { checkPrincipal } from "./principal-check.ts";
import { createSlackApi, slackCredentials } from "./slack/slack-client.ts";
import { handleSlackRequest } from "./slack/slack-ingress.ts";
import { SlackReplies } from "./slack/slack-replies.ts";

export interface ChannelHubOptions {
  runtime: SessionRuntime;
  store: AsyncStore;
  logger: Logger;
  env: Record<string, string | undefined>;
  dev: boolean;
  clock: Clock;
  /** Stream-mode Slack updates at most this often (default one second). */
  slackStreamIntervalMs?: number;
}

/** Background work handed to `waitUntil` gets this long to finish at shutdown. */
const SHUTDOWN_GRACE_MS = 5000;

export class ChannelHub {
  readonly delivery: ChannelDelivery;
  private readonly ledger: DeliveryLedger;
  private readonly slackReplies = new Map<string, SlackReplies>();
  private readonly background = new Set<Promise<unknown>>();
  private readonly unobserve: () => void;

  constructor(private readonly options: ChannelHubOptions) {
    const { runtime, store, logger } = options;
    this.ledger = new DeliveryLedger(runtime.store, runtime.agent.name, options.clock);
    this.delivery = new ChannelDelivery({
      channels: () => this.channels,
      session: (id) => store.sessions.get(id),
      contextFor: (session) => this.eventContext(session),
      packDelivery: (channelId, definition) => this.packDelivery(channelId, definition),
      logger,
    });
    this.unobserve = runtime.reader.observe(this.delivery.deliver);
  }

  get channels(): ReadonlyMap<string, ChannelDefinition> {
    return this.options.runtime.agent.channels;
  }

  get dev(): boolean {
    return this.options.dev;
  }

  /** A channel definition (as imported by a schedule) or id → its id. */
  channelIdOf(channel: ChannelDefinition | string): string {
    if (typeof channel === "string") {
      if (this.channels.has(channel)) return channel;
    } else {
      for (const [id, definition] of this.channels) if (definition === channel) return id;
    }
    throw new BdkError("not_found", `No channel ${typeof channel === "string" ? `"${channel}"` : "matching that definition"} in bot/channels/.`);
  }

  /** Starts or continues a conversation of a channel; a new session starts with the channel's default state. Stored when this resolves. */
  converse(input: Omit<ConversationMessage, "defaultState">): Promise<ConversationTurn> {
    const defaultState = this.channels.get(input.channelId)?.state;
    const { runtime } = this.options;
    return sendToConversation(runtime, runtime.store, { ...input, defaultState });
  }

  async send(channelId: string, message: string, options: SendOptions = {}, caller: Principal, call = "send()"): Promise<SessionHandle> {
    if (typeof message !== "string" || !message.trim()) throw new BdkError("invalid_request", `${call} needs a non-empty message.`);
    const turn = await this.converse({
      channelId,
      message,
      continuationToken: options.continuationToken,
      state: options.state,
      title: options.title,
      principal: options.auth === undefined ? caller : checkPrincipal(options.auth, call),
      admission: options.admission,
      workspaceDir: options.workspaceDir,
      workspaceFiles: options.workspaceFiles,
    });
    return sessionHandle(this.options.runtime, this.options.runtime.store, turn);
  }

  /** Hands work into a channel (from a schedule or another channel) so its delivery events fire. */
  receive(channel: ChannelDefinition | string, input: ReceiveInput, caller: Principal): Promise<SessionHandle> {
    return this.send(this.channelIdOf(channel), input.message, { state: input.state, auth: input.auth }, caller, "receive()");
  }

  /** Keeps background work of a handler going after its response; failures are logged. */
  waitUntil(promise: Promise<unknown>): void {
    const tracked = Promise.resolve(promise).catch((error) =>
      this.options.logger.warn(`Background work of a channel or schedule failed: ${messageOf(error)}`),
    );
    this.background.add(tracked);
    void tracked.finally(() => this.background.delete(tracked));
  }

  /** What a custom route's handler gets besides the request. */
  routeArgs(channelId: string, parts: { body: unknown; query: unknown; params: Record<string, string>; principal: Principal }): RouteHandlerArgs {
    const { runtime } = this.options;
    return {
      ...parts,
      send: (message, options) => this.send(channelId, message, options, parts.principal),
      receive: (channel, input) => this.receive(channel as ChannelDefinition, input, parts.principal),
      getSession: async (id) => {
        const session = await runtime.store.sessions.get(id);
        return session?.channel === channelId ? channelSessionJson(session) : undefined;
      },
      waitUntil: (promise) => this.waitUntil(promise),
      host: runtime.hostServices,
      artifacts: createArtifactsApi({ store: runtime.store, registry: runtime.agent.artifacts }),
    };
  }

  /** The webhook of a Slack or GitHub pack channel. */
  async handlePack(
    channelId: string,
    definition: ChannelDefinition,
    request: { headers: Headers; rawBody: Buffer; devLoopback: boolean },
  ): Promise<Response> {
    const { runtime, store, env, clock, logger } = this.options;
    const pack: PackRequest = {
      ...request,
      channelId,
      devLoopback: this.options.dev && request.devLoopback,
      env,
      now: () => clock.now(),
      ledger: this.ledger,
      send: (input) => this.converse({ ...input, channelId }),
      stop: async (continuationToken) => {
        const session = await store.sessions.findByToken(channelId, continuationToken);
        return session ? runtime.interrupt(session.id) : false;
      },
      host: runtime.hostServices,
      rootDir: runtime.agent.rootDir,
      logError: (message) => logger.error(message, { channel: channelId }),
    };
    if (definition.pack === "slack") return handleSlackRequest(pack, (definition as SlackChannelDefinition).slack);
    if (definition.pack === "github") return handleGitHubRequest(pack, (definition as GitHubChannelDefinition).github);
    throw new BdkError("not_found", `Channel ${channelId} has no webhook.`);
  }

  async close(): Promise<void> {
    this.unobserve();
    for (const replies of this.slackReplies.values()) replies.close();
    const grace = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref());
    await Promise.race([Promise.allSettled([...this.background, this.delivery.settled()]), grace]);
  }

  private eventContext(session: SessionRow): ChannelEventContext {
    const { runtime } = this.options;
    return {
      session: { id: session.id, purpose: session.purpose ?? undefined },
      host: runtime.hostServices,
      artifacts: createArtifactsApi({
        store: runtime.store,
        registry: runtime.agent.artifacts,
        sessionId: session.id,
        onTagged: (artifact) => runtime.append(session.id, [{ type: "artifact.tagged", data: artifact }]),
      }),
    };
  }

  private packDelivery(channelId: string, definition: ChannelDefinition): PackDelivery | undefined {
    if (definition.pack !== "slack") return undefined;
    let replies = this.slackReplies.get(channelId);
    if (!replies) {
      const options = (definition as SlackChannelDefinition).slack;
      const { env, logger } = this.options;
      let api: ReturnType<typeof createSlackApi> | undefined;
      replies = new SlackReplies({
        reply: options.reply,
        logger,
        intervalMs: this.options.slackStreamIntervalMs,
        api: () => {
          const { botToken, botTokenName } = slackCredentials(options, env);
          if (!botToken) return Promise.reject(new BdkError("not_ready", `Set ${botTokenName} to reply in Slack.`));
          api ??= createSlackApi(botToken, env);
          return api;
        },
      });
      this.slackReplies.set(channelId, replies);
    }
    return replies.deliver;
  }
}

/** A session as `getSession` shows it to a channel handler. */
function channelSessionJson(session: SessionRow): Record<string, unknown> {
  return {
    id: session.id,
    title: session.title,
    mode: session.mode,
    status: session.status,
    principal: session.principal,
    channel: session.channel,
    continuationToken: session.continuationToken,
    state: session.channelState,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    lastIndex: session.lastIndex,
  };
}
