/**
 * Workers that run model-supplied patterns with a deadline per request: a
 * regular expression that backtracks catastrophically, or a glob that
 * compiles to one, stops that call with an error naming the problem; the
 * event loop, and every other session, never waits on it.
 *
 * A call holds one worker from a small pool (two kept started, up to four
 * while calls overlap, then a queue). A worker is ended only when its
 * pattern runs past the deadline (or it fails). A call that waits in the
 * queue longer than `QUEUE_PATIENCE_MS` gets a worker of its own, so calls
 * stalled on hostile patterns, each up to its deadline, never delay another
 * session's call by more than that.
 */
import { Worker } from "node:worker_threads";

/** Per request (a batch of at most `BATCH_BYTES` of text): real matching takes milliseconds. */
export const PATTERN_DEADLINE_MS = 5_000;
export const BATCH_BYTES = 1024 * 1024;

export interface PatternSpec {
  regex?: { source: string; flags: string };
  /** `basename`: the pattern matches a path's last segment (a glob without `/`). */
  glob?: { pattern: string; basename: boolean };
}

export interface LineMatch {
  path: string;
  line: number;
  text: string;
}

type Reply = { id: number; matched?: boolean[]; matches?: LineMatch[] };

export class PatternTimeoutError extends Error {
  constructor(readonly what: string) {
    super(`${what} ran longer than ${PATTERN_DEADLINE_MS / 1000} s and was stopped`);
    this.name = "PatternTimeoutError";
  }
}

const WORKER_FILE = new URL("./pattern-worker.mjs", import.meta.url);

/** Workers kept started between calls (starting one costs tens of milliseconds). */
const POOL_SIZE = 2;
/** Workers started on demand while calls overlap; beyond that calls wait their turn. */
export const MAX_PATTERN_WORKERS = 4;
/** A worker past `POOL_SIZE` ends after this long without a call. */
const EXTRA_IDLE_MS = 10_000;
/**
 * How long a call waits for a busy pool before it gets a worker of its own:
 * calls stalled on hostile patterns (each up to the deadline) never hold
 * another session's call up for longer.
 */
const QUEUE_PATIENCE_MS = 250;

interface PooledWorker {
  worker: Worker;
  /** Settles when the worker has loaded its code; a crash on the way rejects. */
  ready: Promise<void>;
  /** Started past the cap for a call that waited too long; ended after it. */
  overflow: boolean;
  retired: boolean;
  idleTimer?: NodeJS.Timeout;
}

interface Waiting {
  hand(pooled: PooledWorker): void;
  fail(error: unknown): void;
  patience: NodeJS.Timeout;
}

const idle: PooledWorker[] = [];
/** Pool workers alive, idle, busy or starting (overflow workers not counted). */
let live = 0;
/** Pool workers still starting: a queue behind them waits for a start, not for a stalled pattern. */
let starting = 0;
const waiting: Waiting[] = [];

function startWorker(overflow: boolean): PooledWorker {
  const worker = new Worker(WORKER_FILE);
  const pooled: PooledWorker = {
    worker,
    overflow,
    retired: false,
    ready: new Promise<void>((resolve, reject) => {
      worker.once("message", () => resolve());
      worker.once("error", reject);
      worker.once("exit", () => reject(new Error("the pattern worker stopped before it started")));
    }),
  };
  pooled.ready.catch(() => retire(pooled));
  worker.once("exit", () => retire(pooled));
  if (!overflow) live++;
  return pooled;
}

/** A pool worker for whichever call waits first once it has started (a call is never tied to a worker still starting). */
function growPool(): void {
  const fresh = startWorker(false);
  starting++;
  fresh.ready.then(
    () => {
      starting--;
      offer(fresh);
    },
    (error: unknown) => {
      starting--;
      waiting.shift()?.fail(error);
    },
  );
}

/** Ends a worker; one ended for a timed-out pattern is replaced when calls wait for it. */
function retire(pooled: PooledWorker, options: { replace?: boolean } = {}): void {
  if (pooled.retired) return;
  pooled.retired = true;
  clearTimeout(pooled.idleTimer);
  if (!pooled.overflow) live--;
  const index = idle.indexOf(pooled);
  if (index !== -1) idle.splice(index, 1);
  void pooled.worker.terminate();
  if (options.replace && waiting.length > 0 && live < MAX_PATTERN_WORKERS) growPool();
}

/** A free worker: to the call that waited longest, else idle (extras end after a while without calls). */
function offer(pooled: PooledWorker): void {
  if (pooled.retired) return;
  const next = waiting.shift();
  if (next) {
    clearTimeout(next.patience);
    next.hand(pooled);
  } else if (pooled.overflow) {
    retire(pooled);
  } else {
    // An idle worker does not keep the process alive.
    pooled.worker.unref();
    idle.push(pooled);
    if (idle.length > POOL_SIZE) {
      pooled.idleTimer = setTimeout(() => idle.length > POOL_SIZE && retire(pooled), EXTRA_IDLE_MS);
      pooled.idleTimer.unref();
    }
  }
}

/** An idle worker, else the first one freed or started, else (after `QUEUE_PATIENCE_MS`) one of the call's own. */
function takeWorker(): Promise<PooledWorker> {
  const found = idle.pop();
  if (found) {
    clearTimeout(found.idleTimer);
    found.worker.ref();
    return Promise.resolve(found);
  }
  return new Promise((resolve, reject) => {
    const entry: Waiting = {
      hand: (pooled) => {
        pooled.worker.ref();
        resolve(pooled);
      },
      fail: (error) => {
        clearTimeout(entry.patience);
        reject(error);
      },
      patience: setTimeout(function overflow() {
        // Workers on their way (slow to start on a busy machine) will serve the queue: another would only start slower.
        if (starting > 0) {
          entry.patience = setTimeout(overflow, QUEUE_PATIENCE_MS);
          return;
        }
        waiting.splice(waiting.indexOf(entry), 1);
        entry.hand(startWorker(true));
      }, QUEUE_PATIENCE_MS),
    };
    waiting.push(entry);
    if (live < MAX_PATTERN_WORKERS) growPool();
  });
}

export class PatternMatcher {
  private nextId = 0;

  private constructor(
    private readonly pooled: PooledWorker,
    private readonly describe: string,
  ) {}

  private get worker(): Worker {
    return this.pooled.worker;
  }

  /** Takes a worker and compiles the patterns in it; an invalid one rejects with the compiler's message. */
  static async start(spec: PatternSpec, describe: string): Promise<PatternMatcher> {
    const pooled = await takeWorker();
    const matcher = new PatternMatcher(pooled, describe);
    try {
      // The deadline is the pattern's: it starts once the worker runs.
      await pooled.ready;
      const ready = await matcher.request<{ ready: boolean; message?: string }>({ compile: spec });
      if (!ready.ready) throw new Error(`invalid pattern: ${ready.message}`);
      return matcher;
    } catch (error) {
      matcher.close();
      throw error;
    }
  }

  /** Which of `paths` the glob matches. */
  async filter(paths: string[]): Promise<boolean[]> {
    if (paths.length === 0) return [];
    return (await this.request<Reply>({ paths })).matched ?? [];
  }

  /** The matching lines of `files`, at most `limit`. */
  async search(files: { path: string; text: string }[], limit: number, maxLineChars: number): Promise<LineMatch[]> {
    if (files.length === 0) return [];
    return (await this.request<Reply>({ files, limit, maxLineChars })).matches ?? [];
  }

  /** Hands the worker on to the next call (a worker that timed out or failed is already ended). */
  close(): void {
    offer(this.pooled);
  }

  /** Posts `body` and waits for its reply within the deadline. */
  private request<T>(body: Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        settle();
        retire(this.pooled, { replace: true });
        reject(new PatternTimeoutError(this.describe));
      }, PATTERN_DEADLINE_MS);
      const onMessage = (reply: T & { id?: number }) => {
        if (reply.id !== id) return;
        settle();
        resolve(reply);
      };
      const onError = (error: Error) => {
        settle();
        retire(this.pooled);
        reject(error);
      };
      const settle = () => {
        clearTimeout(timer);
        this.worker.off("message", onMessage);
        this.worker.off("error", onError);
      };
      this.worker.on("message", onMessage);
      this.worker.on("error", onError);
      this.worker.postMessage({ id, ...body });
    });
  }
}
