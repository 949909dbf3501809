/**
 * What this process keeps in memory about a session: its turn chain while
 * turns run or wait, and afterwards a cache of its stored row and model
 * history. Sessions with turns are kept; idle ones stay only among the
 * `idleLimit` most recently used, so memory does not grow with every session
 * served. An evicted session's history is rebuilt from its events, as after
 * a restart.
 */
import type { ModelMessage } from "ai";
import type { AsyncTransaction } from "../store/async-store.ts";
import type { SessionRow } from "../store/types.ts";
import { RecentMap } from "./recent-map.ts";
import type { TurnEnd } from "./turn-runner.ts";

/** A turn in a session's chain. */
export interface ChainedTurn {
  turnId: string;
  controller: AbortController;
  /** Settles when the turn has ended. */
  done: Promise<TurnEnd>;
}

/** A message admitted into a queued turn, with the files it brought. */
export interface Admitted {
  message: string;
  workspaceFiles?: Record<string, string>;
}

/** A turn accepted while another runs: messages join it until it starts. */
export interface QueuedTurn extends ChainedTurn {
  /** In order of admission; one whose transaction rolls back is taken out. */
  admitted: Admitted[];
  /**
   * The transactions still storing its messages (each hold settles when its
   * transaction ends): the turn starts once all have ended, and a rolled-back
   * first message withdraws it.
   */
  accepting: Map<Promise<void>, AsyncTransaction>;
}

export interface LiveSession {
  /** The stored row as this process last read it (its fixed fields are what turns use). */
  session?: SessionRow;
  history?: ModelMessage[];
  /** The token of the lease this process last ran a turn of the session under: a gap means another node wrote meanwhile. */
  leaseToken?: number;
  /** The turn that runs now (or is still settling after an abort). */
  running?: ChainedTurn;
  next?: QueuedTurn;
  /** The tail of this session's turn chain: turns of one session never overlap. */
  tail: Promise<unknown>;
}

export const DEFAULT_IDLE_SESSIONS = 256;

export class LiveSessions {
  private readonly busy = new Map<string, LiveSession>();
  private readonly idle: RecentMap<string, LiveSession>;

  constructor(idleLimit = DEFAULT_IDLE_SESSIONS) {
    this.idle = new RecentMap(idleLimit);
  }

  /** The session's entry, if this process has one. */
  get(sessionId: string): LiveSession | undefined {
    return this.busy.get(sessionId) ?? this.idle.get(sessionId);
  }

  /** The entry a turn is about to be chained on: kept until `rest`. */
  open(sessionId: string): LiveSession {
    let live = this.busy.get(sessionId);
    if (live) return live;
    live = this.idle.get(sessionId) ?? { tail: Promise.resolve() };
    this.idle.delete(sessionId);
    this.busy.set(sessionId, live);
    return live;
  }

  /** The session's chain has settled with nothing waiting: its entry becomes evictable. */
  rest(sessionId: string, live: LiveSession): void {
    if (this.busy.get(sessionId) !== live || live.running || live.next) return;
    this.busy.delete(sessionId);
    this.idle.set(sessionId, live);
  }

  forget(sessionId: string): void {
    this.busy.delete(sessionId);
    this.idle.delete(sessionId);
  }

  /** Sessions with a turn running or waiting. */
  busySessions(): IterableIterator<[string, LiveSession]> {
    return this.busy.entries();
  }
}
