/**
 * A worker that runs one call's model-supplied patterns with a deadline per
 * request: a regular expression that backtracks catastrophically, or a glob
 * that compiles to one, stops that call with an error naming the problem; the
 * event loop, and every other session, never waits on it.
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

/**
 * A started worker waits for the next call (starting one costs tens of
 * milliseconds); each call still gets a worker of its own, ended after it.
 * The spare does not keep the process alive.
 */
let spare: Worker | undefined;

function takeWorker(): Worker {
  const worker = spare ?? new Worker(WORKER_FILE);
  worker.ref();
  const next = new Worker(WORKER_FILE);
  next.unref();
  // A spare that fails to start is replaced by the next call.
  next.once("error", () => {
    if (spare === next) spare = undefined;
  });
  spare = next;
  return worker;
}

export class PatternMatcher {
  private nextId = 0;

  private constructor(
    private readonly worker: Worker,
    private readonly describe: string,
  ) {}

  /** Takes a worker and compiles the patterns in it; an invalid one rejects with the compiler's message. */
  static async start(spec: PatternSpec, describe: string): Promise<PatternMatcher> {
    const matcher = new PatternMatcher(takeWorker(), describe);
    try {
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

  /** Ends the worker; nothing waits for it to be gone. */
  close(): void {
    void this.worker.terminate();
  }

  /** Posts `body` and waits for its reply within the deadline. */
  private request<T>(body: Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        settle();
        void this.worker.terminate();
        reject(new PatternTimeoutError(this.describe));
      }, PATTERN_DEADLINE_MS);
      const onMessage = (reply: T & { id?: number }) => {
        if (reply.id !== id) return;
        settle();
        resolve(reply);
      };
      const onError = (error: Error) => {
        settle();
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
