/**
 * Delivery events: after each event of a session that belongs to a channel
 * is stored, the channel's `events[type]` handler runs with the event, the
 * channel (`{ id, state }`) and a context. Handlers of one session run in
 * event order; a throwing handler is logged and never touches the session.
 */
import type { ChannelDefinition, ChannelEventContext } from "../authoring/channels.ts";
import type { Logger } from "../host/logger.ts";
import { messageOf } from "../protocol/errors.ts";
import type { AnyBdkEvent } from "../protocol/events.ts";
import { deepFreeze } from "../sessions/hook-runner.ts";
import type { SessionRow } from "../store/types.ts";

/** A channel's built-in reaction to events (the Slack pack's replies), beside the authored handlers. */
export type PackDelivery = (event: Readonly<AnyBdkEvent>, session: SessionRow) => Promise<void>;

export interface DeliveryOptions {
  channels(): ReadonlyMap<string, ChannelDefinition>;
  session(sessionId: string): Promise<SessionRow | undefined>;
  contextFor(session: SessionRow): ChannelEventContext;
  packDelivery(channelId: string, definition: ChannelDefinition): PackDelivery | undefined;
  logger: Logger;
}

type Handler = (event: Readonly<AnyBdkEvent>, channel: { id: string; state: unknown }, ctx: ChannelEventContext) => unknown;

const CHANNEL_CACHE_LIMIT = 10_000;

export class ChannelDelivery {
  /** sessionId → its channel (which never changes); bounded. */
  private readonly channelOf = new Map<string, string>();
  /** The last queued delivery of each session, so handlers see events in order. */
  private readonly tails = new Map<string, Promise<void>>();

  constructor(private readonly options: DeliveryOptions) {}

  /** Runtime observer: queues the handlers these events concern, after the deliveries queued before for the session. */
  readonly deliver = (sessionId: string, events: readonly AnyBdkEvent[]): void => {
    if (this.options.channels().size === 0) return;
    const run = async () => {
      const channelId = await this.channelFor(sessionId, events);
      if (channelId === undefined) return;
      const definition = this.options.channels().get(channelId);
      if (!definition) return;
      const handlers = (definition.events ?? {}) as Record<string, Handler | undefined>;
      const pack = this.options.packDelivery(channelId, definition);
      const relevant = events.filter((event) => handlers[event.type] || pack);
      if (relevant.length === 0) return;
      const session = await this.options.session(sessionId);
      if (!session) return;
      const channel = { id: channelId, state: session.channelState ?? definition.state };
      const ctx = this.options.contextFor(session);
      for (const event of relevant) {
        const frozen = deepFreeze(structuredClone(event));
        const handler = handlers[event.type];
        if (handler) await this.guard(channelId, event.type, () => handler(frozen, channel, ctx));
        if (pack) await this.guard(channelId, event.type, () => pack(frozen, session));
      }
    };
    const tail = (this.tails.get(sessionId) ?? Promise.resolve()).then(run).catch((error: unknown) => {
      this.options.logger.warn(`Session ${sessionId}: its channel delivery failed: ${messageOf(error)}`, { session: sessionId });
    });
    this.tails.set(sessionId, tail);
    void tail.then(() => {
      if (this.tails.get(sessionId) === tail) this.tails.delete(sessionId);
    });
  };

  /** Resolves when every queued delivery has run (shutdown, tests). */
  async settled(): Promise<void> {
    while (this.tails.size > 0) await Promise.allSettled([...this.tails.values()]);
  }

  private async channelFor(sessionId: string, events: readonly AnyBdkEvent[]): Promise<string | undefined> {
    let channelId = this.channelOf.get(sessionId);
    if (channelId === undefined) {
      // A new session names its channel in session.started; older ones are looked up once.
      const started = events.find((event) => event.type === "session.started");
      channelId = started?.type === "session.started" ? started.data.channel : (await this.options.session(sessionId))?.channel;
      if (channelId === undefined) return undefined;
      if (this.channelOf.size >= CHANNEL_CACHE_LIMIT) this.channelOf.clear();
      this.channelOf.set(sessionId, channelId);
    }
    return channelId;
  }

  private async guard(channelId: string, type: string, call: () => unknown): Promise<void> {
    try {
      await call();
    } catch (error) {
      this.options.logger.warn(`Channel ${channelId}: the ${type} handler failed: ${messageOf(error)}`, { channel: channelId, event: type });
    }
  }
}
