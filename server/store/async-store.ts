/**
 * The store contract both dialects meet (issue 16 item 1): the SQLite
 * repositories' interfaces with every method returning a promise, derived
 * by a mapped type so the two never drift. `asyncStore` adapts the
 * synchronous SQLite store to it (its promises resolve values computed at
 * once, so behaviour and speed stay); `openPgStore` (pg/store.ts) is the
 * Postgres implementation. Runtime callers move to this type next.
 */
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

/** What a transaction's work gets: the repositories running in it, and effects for after its commit. */
export interface AsyncTransaction extends AsyncRepositories {
  /** Runs `effect` once the transaction commits; dropped on rollback. */
  afterCommit(effect: () => void): void;
}

export interface AsyncStore extends AsyncRepositories {
  /**
   * Runs `work` in one write transaction; the repositories of `tx` run in it
   * (a Postgres transaction is a connection's, so only `tx` sees it). A
   * rejection rolls back. Only `tx` may be used inside: a call on the store
   * itself would wait for the transaction (SQLite) or run outside it (Postgres).
   */
  transaction<T>(work: (tx: AsyncTransaction) => Promise<T>): Promise<T>;
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

/** A synchronous repository's methods wrapped to return promises (or async generators). */
function promised<T extends object>(repository: T): AsyncRepository<T> {
  const wrapped: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(repository)) {
    if (typeof member !== "function") {
      wrapped[name] = member;
      continue;
    }
    const method = member as (...args: unknown[]) => unknown;
    wrapped[name] = isGeneratorFunction(method)
      ? async function* (...args: unknown[]) {
          yield* method.apply(repository, args) as Generator<unknown>;
        }
      : async (...args: unknown[]) => method.apply(repository, args);
  }
  return wrapped as AsyncRepository<T>;
}

function isGeneratorFunction(fn: object): boolean {
  return fn.constructor.name === "GeneratorFunction";
}

/** The SQLite store behind the async contract. */
export function asyncStore(store: Store): AsyncStore {
  const repositories = Object.fromEntries(REPOSITORY_NAMES.map((name) => [name, promised(store[name])])) as unknown as AsyncRepositories;
  return {
    ...repositories,
    // Inside transactionAsync, afterCommit defers to its commit.
    transaction: (work) => store.transactionAsync(() => work({ ...repositories, afterCommit: store.afterCommit })),
    close: async () => store.close(),
  };
}
