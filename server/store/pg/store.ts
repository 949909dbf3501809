/**
 * The store on Postgres (issue 16 item 1): every repository of the async
 * contract over one connection pool, the schema migrated on open. Several
 * nodes open the same database; what must happen once across them is a
 * conditional write in the database (approvals, reminder and schedule tick claims, leases)
 * or the fenced event log (event-log.ts) over the session owner rows.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import type { AsyncRepositories, AsyncStore, AsyncTransaction } from "../async-store.ts";
import type { SharedStore } from "../multi-node.ts";
import { ModelCallChains } from "../model-calls.ts";
import { TransactionLevels } from "../transaction-levels.ts";
import type { LogLevel } from "../types.ts";
import { createPgApprovalsRepository } from "./approvals.ts";
import { createPgArtifactsRepository } from "./artifacts.ts";
import type { PgContext } from "./context.ts";
import { migratePg, pgDb } from "./db.ts";
import { createPgEvalRunsRepository } from "./eval-runs.ts";
import { checkOwner } from "./event-log.ts";
import { createPgEventsRepository } from "./events.ts";
import { createPgIdempotencyRepository } from "./idempotency.ts";
import { createPgKvRepository } from "./kv.ts";
import { createPgLeasesRepository, nodeHolder } from "./leases.ts";
import { createPgLogsRepository, type TrimCounts } from "./logs.ts";
import { createPgMemoryRepository } from "./memory.ts";
import { createPgModelCallsRepository } from "./model-calls.ts";
import { type PgAppendWatchOptions, watchPgAppends } from "./notify.ts";
import { createPgRemindersRepository } from "./reminders.ts";
import { createPgScheduleTicksRepository } from "./schedule-ticks.ts";
import type { SessionLease } from "./session-owners.ts";
import { createPgSessionsRepository } from "./sessions.ts";
import { createPgToolCallsRepository } from "./tool-calls.ts";
import { inTransaction } from "./transaction.ts";
import { createPgTurnsRepository } from "./turns.ts";

export interface PgStoreOptions {
  /** Source of every stored timestamp (tests inject a fake one). Lease expiry of session owners is the database's clock. */
  clock?: () => Date;
  /** Log lines kept per level (default LOG_RETENTION). */
  logRetention?: Readonly<Record<LogLevel, number>>;
  /** Connections in the pool (default 10). */
  maxConnections?: number;
  /**
   * How long a transaction may sit idle before the server ends it (default
   * 10 s): a node paused mid-transaction must not hold a session's row lock
   * for ever (see transaction.ts).
   */
  idleInTransactionMs?: number;
  /** How long opening a connection may take before the open (or a query) fails (default 10 s): an unreachable database is an error, not a hang. */
  connectTimeoutMs?: number;
  /** How this node hears of other nodes' appends (notify.ts): LISTEN or not, the poll's period, where warnings go. */
  appends?: PgAppendWatchOptions;
}

export interface PgStore extends AsyncStore {
  /** The pool, for the fenced event log and session owners (event-log.ts, session-owners.ts). */
  readonly pool: pg.Pool;
  readonly shared: SharedStore;
  /** Wakes `wake` when the session's lease or its queued turns' preempt requests may have changed (notify.ts); a hint only. */
  watchSession(sessionId: string, wake: () => void): () => void;
  /**
   * Checks that `lease` still owns its session, in the transaction the
   * caller's async context runs in (inside `transaction`'s work), the owner
   * row locked until it ends; throws `LeaseLostError` when it does not.
   */
  checkOwner(lease: SessionLease): Promise<void>;
}

interface Shared {
  now: () => string;
  holder: string;
  sinceTrim: TrimCounts;
  logRetention?: Readonly<Record<LogLevel, number>>;
  modelCallChains: ModelCallChains;
}

function repositories(ctx: PgContext, shared: Shared): AsyncRepositories {
  return {
    sessions: createPgSessionsRepository(ctx),
    events: createPgEventsRepository(ctx),
    turns: createPgTurnsRepository(ctx),
    approvals: createPgApprovalsRepository(ctx),
    kv: createPgKvRepository(ctx),
    artifacts: createPgArtifactsRepository(ctx),
    reminders: createPgRemindersRepository(ctx),
    scheduleTicks: createPgScheduleTicksRepository(ctx),
    evalRuns: createPgEvalRunsRepository(ctx),
    logs: createPgLogsRepository(ctx, shared.sinceTrim, shared.logRetention),
    leases: createPgLeasesRepository(ctx, shared.holder),
    memory: createPgMemoryRepository(ctx),
    idempotency: createPgIdempotencyRepository(ctx),
    toolCalls: createPgToolCallsRepository(ctx),
    modelCalls: createPgModelCallsRepository(ctx, shared.modelCallChains),
  };
}

interface OpenTransaction {
  client: pg.PoolClient;
  tx: AsyncTransaction;
  levels: TransactionLevels;
  savepoints: number;
  /** Its work has settled: the connection is about to commit (or roll back) and go back to the pool. */
  ended: boolean;
}

/**
 * `work` in a savepoint of the open transaction: a statement that fails in
 * it (a unique violation) rolls back the savepoint, not the transaction,
 * which Postgres would otherwise refuse to go on with.
 */
async function inSavepoint<T>(open: OpenTransaction, work: (tx: AsyncTransaction) => Promise<T>): Promise<T> {
  const name = `bdk_nested_${++open.savepoints}`;
  open.levels.enter();
  await open.client.query(`SAVEPOINT ${name}`);
  let result: T;
  try {
    result = await work(open.tx);
    await open.client.query(`RELEASE SAVEPOINT ${name}`);
  } catch (error) {
    await open.client.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
    open.levels.rollBack();
    throw error;
  }
  open.levels.commit();
  return result;
}

/** The URL as it may be shown: without its password. */
function shownUrl(url: URL): string {
  const shown = new URL(url);
  if (shown.password) shown.password = "***";
  return shown.toString();
}

/** `url` parsed, or an error naming what is wrong with it (never echoing a password). */
function parseDatabaseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("The database URL is not a URL: expected postgres://user:password@host:5432/database.");
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new Error(`The database URL must start with postgres:// or postgresql://, got ${parsed.protocol}//.`);
  }
  return parsed;
}

export async function openPgStore(url: string, options: PgStoreOptions = {}): Promise<PgStore> {
  const parsed = parseDatabaseUrl(url);
  const clock = options.clock ?? (() => new Date());
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    idle_in_transaction_session_timeout: options.idleInTransactionMs ?? 10_000,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
  });
  // An idle connection the server ends is an `error` on the pool: the pool discards it and the next query opens another.
  pool.on("error", () => undefined);
  try {
    await migratePg(pool);
  } catch (error) {
    await pool.end();
    // One line naming the database: the driver's message alone (ECONNREFUSED, a timeout) does not say which.
    const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0] || (error as { code?: string }).code;
    throw new Error(`Could not open the Postgres database ${shownUrl(parsed)}: ${reason}`);
  }
  const shared: Shared = { now: () => clock().toISOString(), holder: nodeHolder(), sinceTrim: new Map(), logRetention: options.logRetention, modelCallChains: new ModelCallChains() };
  const onPool: PgContext = { db: pgDb(pool), client: pool, now: shared.now, afterCommit: (effect) => effect() };
  const base = repositories(onPool, shared);
  let closing: Promise<void> | undefined;
  /** The transaction the caller's async context runs in, if any: a nested `transaction` is a savepoint of it. */
  const ambient = new AsyncLocalStorage<OpenTransaction>();
  const appends = watchPgAppends(pool, url, { connectTimeoutMs: options.connectTimeoutMs, ...options.appends });
  return {
    ...base,
    pool,
    watchSession: appends.watchSession,
    shared: {
      watchAppends: appends.watchAppends,
      async owner(sessionId) {
        const { rows } = await pool.query<{ holder: string; expires_at: Date }>("SELECT holder, expires_at FROM session_owners WHERE session_id = $1", [sessionId]);
        return rows[0] ? { holder: rows[0].holder, expiresAt: rows[0].expires_at.toISOString() } : undefined;
      },
    },
    async transaction(work) {
      const outer = ambient.getStore();
      // A promise made inside a transaction's work may call this after that transaction ended: it opens its own.
      if (outer && !outer.ended) return inSavepoint(outer, work);
      const levels = new TransactionLevels();
      levels.enter();
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await inTransaction(pool, (client) => {
          const afterCommit = (effect: () => void) => void levels.afterCommit(effect);
          const inTx: PgContext = { db: pgDb(client), client, now: shared.now, afterCommit };
          const tx: AsyncTransaction = { ...repositories(inTx, shared), afterCommit, onRollback: (effect) => levels.onRollback(effect) };
          const open: OpenTransaction = { client, tx, levels, savepoints: 0, ended: false };
          // Ended as soon as the work has settled, before the commit hands the connection back.
          return ambient.run(open, () => work(tx)).finally(() => (open.ended = true));
        });
      } catch (error) {
        levels.rollBack();
        throw error;
      }
      levels.commit();
      return result;
    },
    async checkOwner(lease) {
      const open = ambient.getStore();
      if (!open || open.ended) throw new Error(`The owner of session ${lease.sessionId} is checked inside a transaction, and none is open here.`);
      return checkOwner(open.client, lease);
    },
    // Once, like the SQLite store's: a second close waits for the first.
    close() {
      closing ??= Promise.all([appends.close(), base.leases.close()]).then(() => undefined).finally(() => pool.end());
      return closing;
    },
  };
}
