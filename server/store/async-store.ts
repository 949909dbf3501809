/**
 * The store contract both dialects meet (issue 16 item 1): the SQLite
 * repositories' interfaces with every method returning a promise, derived
 * by a mapped type so the two never drift. `asyncStore` adapts the
 * synchronous SQLite store to it (its promises resolve values computed at
 * once, so behaviour and speed stay); `openPgStore` (pg/store.ts) is the
 * Postgres implementation. Runtime callers move to this type next.
 */
import type { SharedStore } from "./multi-node.ts";
import type { Store } from "./store.ts";
import type { Transactions } from "./transactions.ts";

/** A method's result as a promise; a generator's as an async generator. */
type Promised<R> = [R] extends [Generator<infer Y, infer Return, infer Next>] ? AsyncGenerator<Y, Return, Next> : Promise<Awaited<R>>;

/** Every method of a repository, asynchronous. */
export type AsyncRepository<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promised<R> : T[K];
};

export type RepositoryName = Exclude<keyof Store, "stateRoot" | "close" | keyof Transactions>;

/** Every repository, asynchronous. */
export type AsyncRepositories = { readonly [K in RepositoryName]: AsyncRepository<Store[K]> };

/** What a transaction's work gets: the repositories running in it, and effects for after its commit or its rollback. */
export interface AsyncTransaction extends AsyncRepositories {
  /** Runs `effect` once the transaction commits; dropped on rollback. */
  afterCommit(effect: () => void): void;
  /**
   * Runs `effect` if the transaction rolls back (or the savepoint of a nested
   * `transaction` it was registered in): what the work did outside the
   * store (a turn it queued in memory) is undone. Dropped on commit.
   */
  onRollback(effect: () => void): void;
}

export interface AsyncStore extends AsyncRepositories {
  /**
   * Runs `work` in one write transaction; the repositories of `tx` run in it
   * (a Postgres transaction is a connection's, so only `tx` sees it). A
   * rejection rolls back. Only `tx` may be used inside: a call on the store
   * itself would wait for the transaction (SQLite) or run outside it (Postgres).
   * Called inside `work` (its async context), it is a savepoint of the open
   * transaction on both dialects: a rejection rolls back the savepoint only,
   * so the outer work may go on (a conversation insert that lost a race is
   * retried as a follow-up). Nested calls run one at a time.
   */
  transaction<T>(work: (tx: AsyncTransaction) => Promise<T>): Promise<T>;
  /** Present on a store other nodes share (Postgres): their appends and the sessions' owners. */
  readonly shared?: SharedStore;
  close(): Promise<void>;
}

export const REPOSITORY_NAMES = [
  "sessions",
  "events",
  "turns",
  "approvals",
  "kv",
  "artifacts",
  "reminders",
  "scheduleTicks",
  "evalRuns",
  "logs",
  "leases",
  "memory",
  "idempotency",
  "toolCalls",
  "modelCalls",
] as const satisfies readonly RepositoryName[];

// Compile-time check that the list names every repository of Store.
type Missing = Exclude<RepositoryName, (typeof REPOSITORY_NAMES)[number]>;
const everyRepository: [Missing] extends [never] ? true : Missing = true;
void everyRepository;

/**
 * A synchronous repository's methods wrapped to return promises (or async
 * generators), each call (each step of a generator) run through `whenFree`:
 * outside an open async transaction it waits for that transaction's end
 * instead of joining it on the one connection.
 */
function promised<T extends object>(repository: T, whenFree: Store["whenFree"]): AsyncRepository<T> {
  const wrapped: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(repository)) {
    if (typeof member !== "function") {
      wrapped[name] = member;
      continue;
    }
    const method = member as (...args: unknown[]) => unknown;
    wrapped[name] = isGeneratorFunction(method)
      ? async function* (...args: unknown[]) {
          const steps = method.apply(repository, args) as Generator<unknown>;
          try {
            for (;;) {
              const step = await whenFree(() => steps.next());
              if (step.done) return step.value;
              yield step.value;
            }
          } finally {
            steps.return(undefined);
          }
        }
      : (...args: unknown[]) => whenFree(() => method.apply(repository, args));
  }
  return wrapped as AsyncRepository<T>;
}

function isGeneratorFunction(fn: object): boolean {
  return fn.constructor.name === "GeneratorFunction";
}

/** The SQLite store behind the async contract. */
export function asyncStore(store: Store): AsyncStore {
  const repositories = Object.fromEntries(REPOSITORY_NAMES.map((name) => [name, promised(store[name], store.whenFree)])) as unknown as AsyncRepositories;
  // Inside transactionAsync (its async context), afterCommit and onRollback go to its innermost level.
  const tx: AsyncTransaction = { ...repositories, afterCommit: store.afterCommit, onRollback: store.onRollback };
  return {
    ...repositories,
    transaction: (work) => store.transactionAsync(() => work(tx)),
    close: async () => store.close(),
  };
}
