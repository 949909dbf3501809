import { BdkError } from "../protocol/errors.ts";
import type { AnyBdkEvent, Principal } from "../protocol/events.ts";
import type { TurnTrace } from "../protocol/model-calls.ts";
import type { AsyncStore } from "../store/async-store.ts";
import type { SessionEventLog } from "./event-log.ts";
import type { LiveSessions } from "./live-sessions.ts";
import { requireSession } from "./session-access.ts";
import { type TurnStatusLine, turnStatusLine } from "./stream-status.ts";

export interface SessionReaderOptions {
  store: AsyncStore;
  log: SessionEventLog;
  lives: LiveSessions;
  nodeId: string;
  now: () => Date;
}

/**
 * Reading a session's log: its stored events, a replay that goes on live,
 * a turn's trace, and every session's events as they are recorded. Each
 * read of one session checks that the caller may use it.
 */
export class SessionReader {
  constructor(private readonly options: SessionReaderOptions) {}

  /** Replays from `fromIndex` (negative counts back from the end), then follows live; `ended` if the session is deleted. */
  async follow(
    sessionId: string,
    principal: Principal,
    fromIndex: number,
    deliver: (events: readonly AnyBdkEvent[]) => void,
    ended?: () => void,
  ): Promise<() => void> {
    return this.options.log.follow(sessionId, await this.startIndex(sessionId, principal, fromIndex), deliver, ended);
  }

  /** Follows from `fromIndex` until `found` accepts an event (each event is offered once, in order). */
  async followUntil(sessionId: string, principal: Principal, fromIndex: number, found: (event: AnyBdkEvent) => boolean): Promise<void> {
    let stop: (() => void) | undefined;
    let finished = false;
    await new Promise<void>((resolve, reject) => {
      // Ended without the event: the session was deleted, or its events could not be read (the log says which).
      const ended = () => {
        if (finished) return;
        finished = true;
        reject(new BdkError("not_found", `Session ${sessionId} ended (deleted, or its events could not be read) before the event awaited from index ${fromIndex}.`));
      };
      this.follow(
        sessionId,
        principal,
        fromIndex,
        (events) => {
          for (const event of events) {
            if (finished || !found(event)) continue;
            finished = true;
            stop?.();
            resolve();
          }
        },
        ended,
      ).then((unsubscribe) => {
        stop = unsubscribe;
        if (finished) unsubscribe();
      }, reject);
    });
  }

  /** `follow` as NDJSON text, for `GET .../stream`; a deleted session's stream gets a last `session.deleted` line. */
  async followNdjson(
    sessionId: string,
    principal: Principal,
    fromIndex: number,
    deliver: (text: string) => void,
    ended?: (lastLine: string) => void,
  ): Promise<() => void> {
    return this.options.log.followNdjson(sessionId, await this.startIndex(sessionId, principal, fromIndex), deliver, ended);
  }

  /** The session's turn as a stream keepalive line (stream-status.ts); undefined while it has none. The caller checked access. */
  turnStatusLine(sessionId: string): Promise<TurnStatusLine | undefined> {
    const { store, lives, nodeId, now } = this.options;
    const live = lives.get(sessionId);
    return turnStatusLine(sessionId, { store, nodeId, runsHere: !!(live?.running || live?.next), now: now() });
  }

  /** The stored events from `fromIndex` as one NDJSON text (the `/events` dump). */
  async eventsNdjson(sessionId: string, principal: Principal, fromIndex = 0): Promise<string> {
    return this.options.log.ndjson(sessionId, await this.startIndex(sessionId, principal, fromIndex));
  }

  async events(sessionId: string, principal: Principal, fromIndex = 0): Promise<AnyBdkEvent[]> {
    const start = await this.startIndex(sessionId, principal, fromIndex);
    return (await this.options.store.events.list(sessionId, { fromIndex: start })) as AnyBdkEvent[];
  }

  /** What a turn's model steps were sent and answered, and its tool calls as the ledger checked them (the Trace tab's detail). */
  async turnTrace(sessionId: string, turnId: string, principal: Principal): Promise<TurnTrace> {
    const { store } = this.options;
    await requireSession(store, sessionId, principal);
    const toolCalls = (await store.toolCalls.ofTurn(sessionId, turnId)).map(({ toolCallId, name, effect, input, status, startedAt, endedAt }) => ({ toolCallId, name, effect, input, status, startedAt, endedAt }));
    return { turnId, modelCalls: await store.modelCalls.ofTurns(sessionId, [turnId]), toolCalls };
  }

  /**
   * Sees every recorded event of every session (after it is stored and
   * published), e.g. for channel delivery events. Returns the unsubscribe.
   */
  observe(observer: (sessionId: string, events: readonly AnyBdkEvent[]) => void): () => void {
    return this.options.log.observe(observer);
  }

  private async startIndex(sessionId: string, principal: Principal, fromIndex: number): Promise<number> {
    const session = await requireSession(this.options.store, sessionId, principal);
    return fromIndex < 0 ? Math.max(0, session.lastIndex + 1 + fromIndex) : fromIndex;
  }
}
