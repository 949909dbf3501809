/**
 * One owner per session (issue 16, item 2), as the runtime sees it: a turn
 * runs while its process holds the session's lease; every append it makes
 * is fenced by the lease (checked in the append's transaction); losing the
 * lease (a takeover, a failed heartbeat) stops the turn. A sweeper
 * (lease-sweeper.ts) ends the unfinished turns of sessions whose owner is
 * gone, and adopts those parked on an approval.
 *
 * Two implementations of the one interface: on SQLite one process owns the
 * whole store (the process lock), so its lease is always granted and fences
 * nothing; on Postgres (`pgTurnLeases`) it is the session_owners row with a
 * heartbeat and a rising fencing token, in its own module (pg-turn-leases.ts)
 * so a server on SQLite never loads the Postgres driver.
 */
import type { AsyncStore } from "../store/async-store.ts";
import type { TurnRow } from "../store/types.ts";

export interface TurnLease {
  /** The fencing token: it rises with every acquisition of the session, by any node. */
  readonly token: number;
  /**
   * Whether nobody else held the session since `previous` (the token of this
   * process's last lease of it): only then does what this process cached of
   * the session (its history, its row) still hold.
   */
  follows(previous: number | undefined): boolean;
  /**
   * The session's other unfinished turns when a turn took this lease: a
   * started one is a previous owner's that died (a live one would still hold
   * the lease), ended by the turn before it runs (recovery.ts,
   * `endLeftBehind`). Empty on SQLite and for the sweeper.
   */
  readonly leftBehind: readonly TurnRow[];
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
  /** What fences the session's appends while the lease is held. Absent when nothing else can write. */
  readonly fence?: AppendFence;
  /** Lets the session go: another node may take it at once. */
  release(): Promise<void>;
  /** Stops holding without letting go: the next turn of the session, queued here, takes the lease over as it starts. */
  handOver(): void;
}

/**
 * A lease's fence on the session's appends. A plain append carries the
 * token and the store checks it in the append statement itself (one round
 * trip, no transaction); a transaction that writes other rows first checks
 * the lease at its start instead, so those rows are refused with it.
 */
export interface AppendFence {
  /** The lease's fencing token: the store refuses an append carrying it once another holder took the session. */
  readonly token: number;
  /** Checks the lease inside the open transaction, locking it until that ends; rejects when it no longer holds. */
  check(): Promise<void>;
  /** An append under this fence failed with `error`: when the store refused the token, the lease is lost. */
  failed(error: unknown): void;
}

export interface TurnLeases {
  /**
   * The sweep's candidates: the unfinished turns of sessions no live owner
   * holds, in one query (on Postgres a live lease is filtered out by it, so
   * the sweep never tries to take one). `store`: the runtime's; on SQLite
   * this process owns it, so every unfinished turn in it is a candidate.
   */
  lapsed(store: AsyncStore): Promise<TurnRow[]>;
  /**
   * The session's lease for `turnId`, waiting while another node holds it
   * (its turn runs there first); rejects with the signal's reason when
   * aborted meanwhile. Undefined when another node ended the turn while it
   * waited (its sweeper): the turn must not run.
   */
  acquire(sessionId: string, turnId: string, signal: AbortSignal): Promise<TurnLease | undefined>;
  /**
   * The session's lease for the sweeper, once its owner is gone, with which
   * of the session's unfinished `turns` it may end (or adopt, when parked)
   * now; undefined while an owner holds it. Taken as this node: a turn of
   * the session resumed here later takes it over as its own.
   */
  takeOver(sessionId: string, turns: readonly TurnRow[]): Promise<{ lease: TurnLease; turns: readonly TurnRow[] } | undefined>;
  /** Whether `turn` is old enough for the sweeper: one younger than a lease may have just been accepted on a node whose turn has not taken the lease yet. */
  settled(turn: TurnRow, now: Date): boolean;
  /** How often the sweeper runs; undefined: once, at startup (nothing else can leave turns behind while this process runs). */
  readonly sweepEveryMs?: number;
  /** The process stops: heartbeats end (a turn left parked keeps its row, which lapses, and another node adopts it), nothing is released. */
  close(): void;
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
  leftBehind: [],
  lost: new AbortController().signal,
  preempted: new AbortController().signal,
  watch: () => () => undefined,
  release: async () => undefined,
  handOver: () => undefined,
};

/** One process owns the store: every lease is granted at once and fences nothing. */
export const localTurnLeases: TurnLeases = {
  lapsed: (store) => store.turns.listByStatus(["queued", "running"]),
  acquire: async () => HELD_FOR_EVER,
  takeOver: async (_sessionId, turns) => ({ lease: HELD_FOR_EVER, turns }),
  settled: () => true,
  close: () => undefined,
};
