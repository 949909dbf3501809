/**
 * Replies of the Slack pack, driven by the session's events.
 *
 * - `post` (default): the final answer of each turn is posted to the thread.
 *   With `reply.status`, a status message is posted when the turn starts,
 *   updated while the agent reasons or calls tools, and replaced by the answer.
 * - `stream`: the answer is posted at its first words and updated as it
 *   streams (at most once per `intervalMs`), ending with the full answer.
 */
import type { SlackChannelOptions } from "../../authoring/channels-slack.ts";
import type { Logger } from "../../host/logger.ts";
import { messageOf } from "../../protocol/errors.ts";
import type { AnyBdkEvent } from "../../protocol/events.ts";
import type { SessionRow } from "../../store/types.ts";
import type { SlackApi } from "./slack-client.ts";
import type { SlackThreadState } from "./slack-events.ts";

export const STREAM_INTERVAL_MS = 1000;

interface TurnReply {
  /** The message this turn writes into (status chip or streamed answer). */
  ts?: string;
  text: string;
  lastFlush: number;
  flushTimer?: NodeJS.Timeout;
  reasoningShown?: boolean;
}

export interface SlackRepliesOptions {
  reply: NonNullable<SlackChannelOptions["reply"]> | undefined;
  api: () => Promise<SlackApi>;
  logger: Logger;
  intervalMs?: number;
}

export class SlackReplies {
  private readonly turns = new Map<string, TurnReply>();
  /** Slack calls of one session go out in order. */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(private readonly options: SlackRepliesOptions) {}

  private get mode(): "post" | "stream" {
    return this.options.reply?.mode ?? "post";
  }

  /** The pack's delivery: one event of a session of this channel. */
  readonly deliver = async (event: Readonly<AnyBdkEvent>, session: SessionRow): Promise<void> => {
    const target = session.channelState as SlackThreadState | null;
    if (!target?.channel) return;
    const status = this.options.reply?.status;
    switch (event.type) {
      case "turn.started": {
        this.reset(session.id);
        const reply: TurnReply = { text: "", lastFlush: 0 };
        this.turns.set(session.id, reply);
        if (this.mode === "post" && status) {
          await this.enqueue(session.id, async (api) => {
            reply.ts = (await api.postMessage({ channel: target.channel, thread_ts: target.threadTs, text: status.idle?.[0] ?? "Working on it…" })).ts;
          });
        }
        return;
      }
      case "reasoning.appended": {
        const reply = this.turns.get(session.id);
        if (this.mode !== "post" || !status?.reasoning || !reply || reply.reasoningShown) return;
        reply.reasoningShown = true;
        await this.updateChip(session.id, target, status.reasoning);
        return;
      }
      case "actions.requested": {
        if (this.mode !== "post" || !status) return;
        const names = event.data.actions.map((action) => action.name).join(", ");
        await this.updateChip(session.id, target, `${status.tools ?? "Using tools"}: ${names}`);
        return;
      }
      case "message.appended": {
        const reply = this.turns.get(session.id);
        if (this.mode !== "stream" || !reply) return;
        reply.text += event.data.delta;
        this.scheduleFlush(session.id, target, reply);
        return;
      }
      case "message.completed": {
        // A step that goes on to call tools starts the next step's text afresh in the same message.
        const reply = this.turns.get(session.id);
        if (reply && event.data.finishReason === "tool-calls") reply.text = "";
        return;
      }
      case "turn.completed":
        await this.finish(session.id, target, event.data.result);
        return;
      case "turn.failed":
        if (event.data.status === "failed") await this.finish(session.id, target, `Sorry, I could not finish: ${event.data.message}`);
        else this.reset(session.id);
        return;
      default:
        return;
    }
  };

  private async updateChip(sessionId: string, target: SlackThreadState, text: string): Promise<void> {
    const reply = this.turns.get(sessionId);
    if (!reply) return;
    await this.enqueue(sessionId, async (api) => {
      if (reply.ts) await api.update({ channel: target.channel, ts: reply.ts, text });
    });
  }

  private scheduleFlush(sessionId: string, target: SlackThreadState, reply: TurnReply): void {
    if (reply.flushTimer) return;
    const interval = this.options.intervalMs ?? STREAM_INTERVAL_MS;
    const wait = reply.ts ? Math.max(0, reply.lastFlush + interval - Date.now()) : 0;
    reply.flushTimer = setTimeout(() => {
      reply.flushTimer = undefined;
      const text = reply.text;
      if (!text.trim()) return;
      reply.lastFlush = Date.now();
      void this.enqueue(sessionId, (api) => this.write(api, target, reply, text));
    }, wait);
  }

  private async finish(sessionId: string, target: SlackThreadState, text: string): Promise<void> {
    const reply = this.turns.get(sessionId) ?? { text: "", lastFlush: 0 };
    clearTimeout(reply.flushTimer);
    this.turns.delete(sessionId);
    if (!text.trim()) return;
    await this.enqueue(sessionId, (api) => this.write(api, target, reply, text));
  }

  /** Updates the turn's message, or posts it when there is none yet. */
  private async write(api: SlackApi, target: SlackThreadState, reply: TurnReply, text: string): Promise<void> {
    if (reply.ts) await api.update({ channel: target.channel, ts: reply.ts, text });
    else reply.ts = (await api.postMessage({ channel: target.channel, thread_ts: target.threadTs, text })).ts;
  }

  private reset(sessionId: string): void {
    clearTimeout(this.turns.get(sessionId)?.flushTimer);
    this.turns.delete(sessionId);
  }

  private enqueue(sessionId: string, call: (api: SlackApi) => Promise<void>): Promise<void> {
    const run = async () => {
      try {
        await call(await this.options.api());
      } catch (error) {
        this.options.logger.warn(`Slack reply failed: ${messageOf(error)}`, { sessionId });
      }
    };
    const tail = (this.queues.get(sessionId) ?? Promise.resolve()).then(run);
    this.queues.set(sessionId, tail);
    void tail.then(() => {
      if (this.queues.get(sessionId) === tail) this.queues.delete(sessionId);
    });
    return tail;
  }

  /** Cancels pending stream flushes (shutdown). */
  close(): void {
    for (const sessionId of [...this.turns.keys()]) this.reset(sessionId);
  }
}
