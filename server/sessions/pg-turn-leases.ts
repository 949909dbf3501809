/**
 * The Postgres implementation of TurnLeases (turn-lease.ts): the
 * session_owners row with a heartbeat and a rising fencing token. Loaded
 * only when a database URL is set, with the driver it needs.
 */
import type { Logger } from "../host/logger.ts";
import { messageOf } from "../protocol/errors.ts";
import type { PgStore } from "../store/pg/store.ts";
import { LeaseLostError } from "../store/pg/lease-lost.ts";
import { createSessionOwners, type SessionLease } from "../store/pg/session-owners.ts";
import { nodeHolder } from "../store/pg/leases.ts";
import type { TurnRow } from "../store/types.ts";
import { DEFAULT_LEASE_MS, type TurnLease, type TurnLeases } from "./turn-lease.ts";

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
  const heartbeats = new Set<NodeJS.Timeout>();
  let closed = false;

  /** `turnId`: the turn holding it (the sweeper's lease has none), `leftBehind` the session's other unfinished turns then. */
  const held = (lease: SessionLease, turnId?: string, leftBehind: readonly TurnRow[] = []): TurnLease => {
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
    // One heartbeat at a time: on a saturated pool, ticks queued behind a slow one would only add load.
    let beating = false;
    const heartbeat = setInterval(() => {
      if (!beating) {
        beating = true;
        owners
          .heartbeat(lease, ttlMs)
          .then(
            (extended) => extended || lose("another node took it over, or it lapsed"),
            (error: unknown) => lose(`the heartbeat failed: ${messageOf(error)}`),
          )
          .finally(() => (beating = false));
      }
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
      leftBehind,
      follows: (previous) => previous !== undefined && lease.token === previous + 1,
      lost: lost.signal,
      preempted: preempted.signal,
      watch(changed) {
        watchers.add(changed);
        return () => watchers.delete(changed);
      },
      fence: {
        token: lease.token,
        check: () => store.checkOwner(lease),
        failed(error) {
          if (error instanceof LeaseLostError) lose(error.message);
        },
      },
      async release() {
        stop();
        await owners.release(lease);
      },
      handOver: stop,
    };
  };

  return {
    lapsed: () => owners.lapsedTurns(),
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
            // One read for both: whether the turn still runs, and what a dead owner left unfinished.
            const unfinished = await store.turns.listByStatus(["queued", "running"], { sessionId });
            if (!unfinished.some((turn) => turn.id === turnId) && (await store.turns.get(turnId))) {
              await owners.release(lease);
              return undefined;
            }
            return held(lease, turnId, unfinished.filter((turn) => turn.id !== turnId));
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
      // Only a lapsed lease, never one of this node's own turns: taken as this node, so a parked turn it adopts resumes here
      // under it (the resumed turn's acquire, as the same holder, takes it over).
      const lease = await owners.takeLapsed(sessionId, holder, ttlMs, running.length > 0 ? 0 : ttlMs);
      return lease && { lease: held(lease), turns: running.length > 0 ? running : turns };
    },
    settled: (turn, now) => now.getTime() - Date.parse(turn.createdAt) >= ttlMs,
    sweepEveryMs: ttlMs / 2,
    close() {
      closed = true;
      for (const heartbeat of heartbeats) clearInterval(heartbeat);
      heartbeats.clear();
    },
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
