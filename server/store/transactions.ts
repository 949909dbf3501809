/**
 * Write transactions that span repositories, and effects that wait for the
 * commit. A caller that must store several things atomically (a delivery id
 * and the message it carried, an idempotency key and its answer) wraps them
 * in `transaction`; whatever must not be seen before the data is durable
 * (publishing events, copying them to a trace file) goes through
 * `afterCommit`, which runs at once outside a transaction.
 */
import type Database from "better-sqlite3";

export interface Transactions {
  /** Runs `work` in one write transaction (BEGIN IMMEDIATE); a nested call joins the outer one. */
  transaction<T>(work: () => T): T;
  /**
   * Runs asynchronous `work` in one write transaction (the async store
   * contract's). One at a time: the next waits for the last to settle.
   * Whatever else the process writes while `work` awaits joins this
   * transaction (one connection), so `work` should await only the store.
   */
  transactionAsync<T>(work: () => Promise<T>): Promise<T>;
  /** Runs `effect` once the current transaction commits (at once when there is none); dropped on rollback. */
  afterCommit(effect: () => void): void;
}

export function createTransactions(sqlite: Database.Database): Transactions {
  /** One list of effects per open transaction level, innermost last. */
  const levels: Array<Array<() => void>> = [];
  let previous: Promise<unknown> = Promise.resolve();

  const runAsync = async <T>(work: () => Promise<T>): Promise<T> => {
    const effects: Array<() => void> = [];
    levels.push(effects);
    sqlite.exec("BEGIN IMMEDIATE");
    let result: T;
    try {
      result = await work();
      sqlite.exec("COMMIT");
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
      throw error;
    } finally {
      levels.splice(levels.indexOf(effects), 1);
    }
    for (const effect of effects) effect();
    return result;
  };

  return {
    transaction<T>(work: () => T): T {
      const effects: Array<() => void> = [];
      levels.push(effects);
      let result: T;
      try {
        // Nested calls become savepoints (better-sqlite3); only the outermost takes the write lock.
        result = sqlite.transaction(work).immediate();
      } finally {
        levels.pop();
      }
      const outer = levels.at(-1);
      if (outer) outer.push(...effects);
      else for (const effect of effects) effect();
      return result;
    },

    transactionAsync(work) {
      const settled = previous.then(() => runAsync(work));
      previous = settled.catch(() => undefined);
      return settled;
    },

    afterCommit(effect) {
      const current = levels.at(-1);
      if (current) current.push(effect);
      else effect();
    },
  };
}
