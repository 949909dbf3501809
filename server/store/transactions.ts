/**
 * Write transactions that span repositories, and effects that wait for the
 * commit. A caller that must store several things atomically (a delivery id
 * and the message it carried, an idempotency key and its answer) wraps them
 * in `transaction`; whatever must not be seen before the data is durable
 * (publishing events, copying them to a trace file) goes through
 * `afterCommit`, which runs at once outside a transaction.
 *
 * One SQLite connection serves the whole process, so an asynchronous
 * transaction (`transactionAsync`), open across awaits, would take in every
 * statement run meanwhile, whoever runs it, and its rollback would lose
 * them. So while one is open, the connection is its own: the async context
 * its work runs in (an AsyncLocalStorage) uses the connection at once; store
 * calls from any other context wait for its end (`whenFree`, which the async
 * store runs every call through); and a synchronous `transaction` from
 * another context throws (it cannot wait without blocking the very
 * transaction it would wait for).
 *
 * The gate is the process's, not the connection's: two stores of one
 * process on one file (two "processes" of a test, a command run beside the
 * server) would otherwise deadlock, one blocking the thread on the write
 * lock the other holds across awaits. Other processes wait on SQLite's lock
 * (busy_timeout) while the holder goes on.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type Database from "better-sqlite3";
import { TransactionLevels } from "./transaction-levels.ts";

export interface Transactions {
  /**
   * Runs `work` in one write transaction (BEGIN IMMEDIATE); a nested call
   * joins the outer one (a savepoint). Throws when an async transaction of
   * another async context is open in the process.
   */
  transaction<T>(work: () => T): T;
  /**
   * Runs asynchronous `work` in one write transaction (the async store
   * contract's). One at a time: the next waits for the last to settle, and
   * so do store calls made through `whenFree` from outside `work`. Called
   * from inside `work`, it is a savepoint of the open one (rolled back alone
   * when its work rejects); such nested calls must not run concurrently.
   */
  transactionAsync<T>(work: () => Promise<T>): Promise<T>;
  /** Runs `call` now, or, while an async transaction of another async context is open, once that transaction has ended. */
  whenFree<T>(call: () => T): Promise<T>;
  /** Runs `effect` once the current transaction commits (at once when there is none); dropped on rollback. */
  afterCommit(effect: () => void): void;
  /** Runs `effect` if the current transaction (or savepoint) rolls back; dropped on commit; outside a transaction, nothing can roll back and it is dropped. */
  onRollback(effect: () => void): void;
}

/** The async transaction open in this process now, whichever store's; its work's async context carries it. */
interface OpenAsync {
  sqlite: Database.Database;
}

const gate = {
  open: undefined as OpenAsync | undefined,
  /** Settles when the last queued async transaction or waiting call has: the next one starts after it. */
  previous: Promise.resolve() as Promise<unknown>,
  context: new AsyncLocalStorage<OpenAsync>(),
};

/** Whether the caller may use a connection now: no async transaction is open, or the caller runs inside it. */
const mayUseConnection = () => gate.open === undefined || gate.context.getStore() === gate.open;

const enqueue = <T>(run: () => T | Promise<T>): Promise<T> => {
  const settled = gate.previous.then(run);
  gate.previous = settled.catch(() => undefined);
  return settled;
};

export function createTransactions(sqlite: Database.Database): Transactions {
  /** The open transaction levels of this connection (all of one async context while an async transaction is open). */
  const levels = new TransactionLevels();
  let savepoints = 0;

  const runOutermost = async <T>(work: () => Promise<T>): Promise<T> => {
    const token: OpenAsync = { sqlite };
    levels.enter();
    sqlite.exec("BEGIN IMMEDIATE");
    gate.open = token;
    let result: T;
    try {
      result = await gate.context.run(token, work);
      sqlite.exec("COMMIT");
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
      gate.open = undefined;
      levels.rollBack();
      throw error;
    }
    gate.open = undefined;
    levels.commit();
    return result;
  };

  const runSavepoint = async <T>(work: () => Promise<T>): Promise<T> => {
    const name = `bdk_async_${++savepoints}`;
    levels.enter();
    sqlite.exec(`SAVEPOINT ${name}`);
    let result: T;
    try {
      result = await work();
      sqlite.exec(`RELEASE ${name}`);
    } catch (error) {
      if (sqlite.inTransaction) {
        sqlite.exec(`ROLLBACK TO ${name}`);
        sqlite.exec(`RELEASE ${name}`);
      }
      levels.rollBack();
      throw error;
    }
    levels.commit();
    return result;
  };

  return {
    transaction<T>(work: () => T): T {
      if (!mayUseConnection()) {
        throw new Error(
          "A synchronous store transaction cannot start while an asynchronous one is open in this process " +
            "(it would join that transaction, or block on its lock); use the async store's transaction.",
        );
      }
      levels.enter();
      let result: T;
      try {
        // Nested calls become savepoints (better-sqlite3); only the outermost takes the write lock.
        result = sqlite.transaction(work).immediate();
      } catch (error) {
        levels.rollBack();
        throw error;
      }
      levels.commit();
      return result;
    },

    transactionAsync(work) {
      const open = gate.open;
      if (open === undefined || gate.context.getStore() !== open) return enqueue(() => runOutermost(work));
      if (open.sqlite !== sqlite) {
        return Promise.reject(new Error("A transaction of another store cannot open inside this one: use the store whose transaction is open."));
      }
      return runSavepoint(work);
    },

    whenFree<T>(call: () => T): Promise<T> {
      if (!mayUseConnection()) return enqueue(call);
      try {
        return Promise.resolve(call());
      } catch (error) {
        return Promise.reject(error);
      }
    },

    afterCommit(effect) {
      // Outside the open async transaction's context there is no transaction of the caller's.
      if (!mayUseConnection() || !levels.afterCommit(effect)) effect();
    },

    onRollback(effect) {
      if (mayUseConnection()) levels.onRollback(effect);
    },
  };
}
