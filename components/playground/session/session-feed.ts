import type { Api } from "../../api/api.ts";
import { errorMessage, isApiError } from "../../api/errors.ts";
import type { AnyBdkEvent, StreamKeepalive } from "../../api/types.ts";
import { EventLog } from "./event-log.ts";
import { readLastIndex, writeLastIndex } from "./storage.ts";

export type FeedStatus = "loading" | "live" | "reconnecting" | "ended" | "error";

export interface FeedSnapshot {
  sessionId: string;
  events: readonly AnyBdkEvent[];
  /** Bumps whenever `events` grows (the array itself is appended in place). */
  version: number;
  status: FeedStatus;
  error?: string;
  /** HTTP status of a fatal error (404: no such session, 403: not yours). */
  errorStatus?: number;
  /** The last keepalive of the current turn (owner node, what it waits for); cleared as the turn moves on. */
  turn?: StreamKeepalive;
}

const TERMINAL = new Set(["session.completed", "session.failed"]);
/** Events after which a keepalive's wait is over (and, for a turn's end, its owner too). */
const WAIT_OVER = new Set(["turn.started", "action.approval_resolved"]);
const TURN_OVER = new Set(["turn.completed", "turn.failed"]);

/**
 * One session's events for the Chat, Trace and Raw tabs: the full record from
 * `/events` first (a reload rebuilds the view), then `/stream` from the next
 * index, reconnecting with backoff. Listeners are notified at most once per
 * animation frame, however fast deltas arrive.
 */
export class SessionFeed {
  private readonly log = new EventLog();
  private readonly abort = new AbortController();
  private readonly listeners = new Set<() => void>();
  private snapshot: FeedSnapshot;
  private frame = 0;

  constructor(
    private readonly api: Api,
    readonly sessionId: string,
  ) {
    this.snapshot = { sessionId, events: this.log.events, version: 0, status: "loading" };
  }

  start(): void {
    void this.run();
  }

  dispose(): void {
    this.abort.abort();
    if (this.frame) cancelAnimationFrame(this.frame);
    this.listeners.clear();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): FeedSnapshot => this.snapshot;

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    try {
      await this.api.events(this.sessionId, 0, this.onEvent, signal);
    } catch (err) {
      if (signal.aborted) return;
      if (this.failFatally(err)) return;
    }
    this.publish({ status: "live" });
    let delay = 500;
    while (!signal.aborted) {
      if (this.isFinished()) return this.publish({ status: "ended" });
      const startIndex = Math.max(this.log.lastIndex, readLastIndex(this.sessionId)) + 1;
      const before = this.log.lastIndex;
      try {
        this.publish({ status: "live", error: undefined });
        await this.api.stream(this.sessionId, startIndex, this.onEvent, signal);
      } catch (err) {
        if (signal.aborted) return;
        if (this.failFatally(err)) return;
        this.publish({ status: "reconnecting", error: errorMessage(err) });
      }
      if (this.log.lastIndex > before) delay = 500;
      await sleep(delay, signal);
      delay = Math.min(delay * 2, 8000);
    }
  }

  private onEvent = (event: AnyBdkEvent | StreamKeepalive): void => {
    if (event.type === "stream.keepalive") return this.publish({ turn: event });
    if (event.sessionId && event.sessionId !== this.sessionId) return;
    if (!this.log.add(event)) return;
    const turn = this.snapshot.turn;
    if (turn && TURN_OVER.has(event.type)) this.snapshot = { ...this.snapshot, turn: undefined };
    else if (turn?.waiting && WAIT_OVER.has(event.type)) this.snapshot = { ...this.snapshot, turn: { ...turn, waiting: undefined } };
    this.schedule();
  };

  private isFinished(): boolean {
    const last = this.log.events[this.log.events.length - 1];
    return !!last && TERMINAL.has(last.type);
  }

  /** 401/403/404 will not heal by retrying. */
  private failFatally(err: unknown): boolean {
    if (isApiError(err, 401) || isApiError(err, 403) || isApiError(err, 404)) {
      this.publish({ status: "error", error: errorMessage(err), errorStatus: (err as { status: number }).status });
      return true;
    }
    return false;
  }

  private schedule(): void {
    if (this.frame || this.abort.signal.aborted) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      writeLastIndex(this.sessionId, this.log.lastIndex);
      this.publish({});
    });
  }

  private publish(patch: Partial<FeedSnapshot>): void {
    if (this.abort.signal.aborted) return;
    this.snapshot = { ...this.snapshot, ...patch, events: this.log.events, version: this.snapshot.version + 1 };
    for (const listener of this.listeners) listener();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
