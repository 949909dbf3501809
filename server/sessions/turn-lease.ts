/**
 * One owner per session (issue 16, item 2), as the runtime sees it: a turn
 * runs while its process holds the session's lease; every append it makes
 * is fenced by the lease (checked in the append's transaction); losing the
 * lease (a takeover, a failed heartbeat) stops the turn. A sweeper ends the
 * unfinished turns of sessions whose owner is gone.
 *
 * Two implementations of the one interface: on SQLite one process owns the
 * whole store (the process lock), so its lease is always granted and fences
 * nothing; on Postgres (`pgTurnLeases`) it is the session_owners row with a
 * heartbeat and a rising fencing token.
 */
import type { Logger } from "../host/logger.ts";
import { messageOf } from "../protocol/errors.ts";
import type { TurnRow } from "../store/types.ts";
import type { PgStore } from "../store/pg/store.ts";
import { LeaseLostError } from "../store/pg/event-log.ts";
import { createSessionOwners, type SessionLease } from "../store/pg/session-owners.ts";
import { nodeHolder } from "../store/pg/leases.ts";

export interface TurnLease {
  /** The fencing token: it rises with every acquisition of the session, by any node. */
  readonly token: number;
  /**
   * Whether nobody else held the session since `previous` (the token of this
   * process's last lease of it): only then does what this process cached of
   * the session (its history, its row) still hold.
   */
  follows(previous: number | undefined): boolean;
  /** Aborted when the lease is lost: whatever holds it stops, and nothing it appends is stored. */
  readonly lost: AbortSignal;
  /** Aborted when a message accepted on another node asks to preempt the turn holding the lease (the same node's preempt is the turn chain's). */
  readonly preempted: AbortSignal;
  /**
   * Calls `changed` when another node may have stored something the holder
   * acts on (an approval decided there): on a notification, and at each
   * heartbeat for a lost one. Returns the function that stops it.
   */
  watch(changed: () => void): () => void;
  /** Run inside each transaction that appends to the session: rejects when the lease no longer holds. Absent when nothing else can write. */
  readonly fence?: () => Promise<void>;
  /** Lets the session go: another node may take it at once. */
  release(): Promise<void>;
  /** Stops holding without letting go: the next turn of the session, queued here, takes the lease over as it starts. */
  handOver(): void;
}

export interface TurnLeases {
  /**
   * The session's lease for `turnId`, waiting while another node holds it
   * (its turn runs there first); rejects with the signal's reason when
   * aborted meanwhile. Undefined when another node ended the turn while it
   * waited (its sweeper): the turn must not run.
   */
  acquire(sessionId: string, turnId: string, signal: AbortSignal): Promise<TurnLease | undefined>;
  /**
   * The session's lease for the sweeper, once its owner is gone, with which
   * of the session's unfinished `turns` it may end now; undefined while an
   * owner holds it.
   */
  takeOver(sessionId: string, turns: readonly TurnRow[]): Promise<{ lease: TurnLease; turns: readonly TurnRow[] } | undefined>;
  /** Whether `turn` is old enough for the sweeper: one younger than a lease may have just been accepted on a node whose turn has not taken the lease yet. */
  settled(turn: TurnRow, now: Date): boolean;
  /** How often the sweeper runs; undefined: once, at startup (nothing else can leave turns behind while this process runs). */
  readonly sweepEveryMs?: number;
  /** The process stops: heartbeats end (a turn left parked keeps its row, which lapses), nothing is released. */
  close(): void;
  /** Whether recovery waits here for the approval of a turn parked by a previous process; across nodes it stays parked in the store. */
  readonly adoptsParked: boolean;
}

/**
 * Default lease time on Postgres: a dead node's turn ends within this plus a
 * sweep interval (1.5×, 7.5 s: under issue 16's 10 s takeover target; at
 * 15 s bench/cluster measured 22 s). The cost is a heartbeat query per
 * running turn every 1.7 s and a sweep per node every 2.5 s.
 */
export const DEFAULT_LEASE_MS = 5_000;

const HELD_FOR_EVER: TurnLease = {
  token: 0,
  follows: () => true,
  lost: new AbortController().signal,
  preempted: new AbortController().signal,
  watch: () => () => undefined,
  release: async () => undefined,
  handOver: () => undefined,
};

/** One process owns the store: every lease is granted at once and fences nothing. */
export const localTurnLeases: TurnLeases = {
  acquire: async () => HELD_FOR_EVER,
  takeOver: async (_sessionId, turns) => ({ lease: HELD_FOR_EVER, turns }),
  settled: () => true,
  close: () => undefined,
  adoptsParked: true,
};

export interface PgTurnLeasesOptions {
  store: PgStore;
  logger: Logger;
  /** How long a lease lasts without a heartbeat (default DEFAULT_LEASE_MS); heartbeats come every third of it. */
  ttlMs?: number;
}

export function pgTurnLeases(options: PgTurnLeasesOptions): TurnLeases {
  const { store, logger } = options;
  const ttlMs = options.ttlMs ?? DEFAULT_LEASE_MS;
  const owners = createSessionOwners(store.pool);
  const holder = nodeHolder();
  // The sweeper is a holder of its own: it only ever gets a session whose owner's lease lapsed, never one this node's turns hold.
  const sweeper = `${holder}/sweeper`;
  const heartbeats = new Set<NodeJS.Timeout>();
  let closed = false;

  /** `turnId`: the turn holding it (the sweeper's lease has none). */
  const held = (lease: SessionLease, turnId?: string): TurnLease => {
    const lost = new AbortController();
    const preempted = new AbortController();
    const lose = (why: string) => {
      // A heartbeat still in flight when the process closes its pool is not a lost lease.
      if (lost.signal.aborted || closed) return;
      stop();
      logger.warn(`Lost the lease of session ${lease.sessionId} (token ${lease.token}): ${why}; its turn here stops.`);
      lost.abort(why);
    };
    // What another node stored for this session: woken by its notification, or found at the next heartbeat if that was lost.
    const watchers = new Set<() => void>();
    let checking = false;
    const checkChanges = () => {
      for (const changed of watchers) changed();
      if (checking || preempted.signal.aborted || lost.signal.aborted || closed) return;
      checking = true;
      owners
        .takePreemptRequests(lease.sessionId, turnId)
        .then(
          (requested) => requested && preempted.abort(),
          (error: unknown) => logger.warn(`Could not read the preempt requests of session ${lease.sessionId}: ${messageOf(error)}`),
        )
        .finally(() => (checking = false));
    };
    const unwatch = store.watchSession(lease.sessionId, checkChanges);
    const heartbeat = setInterval(() => {
      owners.heartbeat(lease, ttlMs).then(
        (extended) => extended || lose("another node took it over, or it lapsed"),
        (error: unknown) => lose(`the heartbeat failed: ${messageOf(error)}`),
      );
      checkChanges();
    }, ttlMs / 3);
    heartbeat.unref();
    heartbeats.add(heartbeat);
    const stop = () => {
      clearInterval(heartbeat);
      heartbeats.delete(heartbeat);
      unwatch();
    };
    return {
      token: lease.token,
      follows: (previous) => previous !== undefined && lease.token === previous + 1,
      lost: lost.signal,
      preempted: preempted.signal,
      watch(changed) {
        watchers.add(changed);
        return () => watchers.delete(changed);
      },
      async fence() {
        try {
          await store.checkOwner(lease);
        } catch (error) {
          if (error instanceof LeaseLostError) lose(error.message);
          throw error;
        }
      },
      async release() {
        stop();
        await owners.release(lease);
      },
      handOver: stop,
    };
  };

  return {
    async acquire(sessionId, turnId, signal) {
      // The holder's release wakes the wait at once (its notification); the pause is the fallback when that is lost.
      let wake = (): void => undefined;
      const unwatch = store.watchSession(sessionId, () => wake());
      try {
        for (;;) {
          signal.throwIfAborted();
          let woken = false;
          wake = () => (woken = true);
          const lease = await owners.acquire(sessionId, holder, ttlMs);
          if (lease) {
            const turn = await store.turns.get(turnId);
            if (turn && turn.status !== "queued" && turn.status !== "running") {
              await owners.release(lease);
              return undefined;
            }
            return held(lease, turnId);
          }
          if (!woken) await pause(ttlMs / 3, signal, (resume) => (wake = resume));
        }
      } finally {
        unwatch();
      }
    },
    async takeOver(sessionId, turns) {
      // A running turn is its owner's: a lapsed lease means that node is gone. A queued one may be another node's,
      // waiting for the lease (taking it within a third of a lease of its release): it is ended only once the lease
      // has been lapsed a whole further lease, and after the running ones.
      const running = turns.filter((turn) => turn.status === "running");
      const lease = await owners.acquire(sessionId, sweeper, ttlMs, running.length > 0 ? 0 : ttlMs);
      return lease && { lease: held(lease), turns: running.length > 0 ? running : turns };
    },
    settled: (turn, now) => now.getTime() - Date.parse(turn.createdAt) >= ttlMs,
    sweepEveryMs: ttlMs / 2,
    close() {
      closed = true;
      for (const heartbeat of heartbeats) clearInterval(heartbeat);
      heartbeats.clear();
    },
    adoptsParked: false,
  };
}

/** Resolves after `ms` or once woken (`onWake` is handed the function that wakes it), or rejects with the signal's reason once it aborts. */
function pause(ms: number, signal: AbortSignal, onWake: (wake: () => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    onWake(done);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", aborted, { once: true });
  });
}
