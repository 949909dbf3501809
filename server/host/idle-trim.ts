/**
 * Gives memory back once a burst of work is over. V8 collects the old
 * generation only when allocation asks for it, and keeps the young
 * generation at the size a burst grew it to, so a quiet server keeps the
 * pages it grew into: after a load (bench/http: 170 MB resident a minute
 * after 500 sessions, 139 MB after one full collection, 128 MB idle before
 * the load), and after its own start on Node 24, whose young generation
 * grows to 64 MB and more while the agents and Next.js load. One full
 * collection after `quietMs` without activity, counting the start-up as a
 * burst, hands them back; a server that stays idle is not collected again.
 * The start-up's collection comes sooner when the host says the start-up is
 * over (`settled`): Node 24 sat at 276 MB for the first 30 s otherwise.
 * Which collection hands the pages back differs by Node version
 * (`fullCollection`).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export interface IdleTrimOptions {
  /** How long without activity counts as the end of a burst. */
  quietMs?: number;
  /** How long after `settled()` the start-up's collection runs, if no request came first. */
  settleMs?: number;
  /** The collection (default: V8's full GC); tests count calls. */
  collect?: () => void;
}

/** The options `gc()` takes (V8's gc extension). */
interface CollectionOptions {
  type: "major";
  execution: "sync";
  flavor: "last-resort";
}

/**
 * V8's `gc()`, reached without `--expose-gc` on the command line: the flag is
 * set, then a fresh context sees the function. A plain `gc()` on Node 24
 * keeps the pages the heap grew into (after a burst: 220 MB resident a
 * minute later, against 126 MB idle); the "last-resort" flavour collects
 * until nothing more is freed and shrinks the heap to what is live, as V8
 * does before running out of memory. Node 20's V8 hands back little with
 * those options: the plain collection that follows does it there.
 */
export function fullCollection(): () => void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as (options?: CollectionOptions) => void;
  return () => {
    gc({ type: "major", execution: "sync", flavor: "last-resort" });
    gc();
  };
}

export class IdleTrim {
  /** The start-up is a burst of its own (the agents, the store, Next.js): the first collection follows it. */
  private lastActivity = Date.now();
  private trimmedAfter = 0;
  private readonly timer: NodeJS.Timeout;
  private settleTimer: NodeJS.Timeout | undefined;
  private readonly settleMs: number;
  private readonly collect: () => void;

  constructor(options: IdleTrimOptions = {}) {
    const quietMs = options.quietMs ?? 30_000;
    this.settleMs = options.settleMs ?? 2_000;
    this.collect = options.collect ?? fullCollection();
    // Checked four times per quiet period, so the collection lands within 1¼ quiet periods of the last request (a minute after a load ends, it has run).
    this.timer = setInterval(() => this.check(quietMs), quietMs / 4);
    this.timer.unref();
  }

  /** Something happened (a request arrived): the burst goes on. */
  touch(): void {
    this.lastActivity = Date.now();
  }

  /** The start-up's work is done (the web app booted): collect soon, unless requests began a burst of their own. */
  settled(): void {
    const quietSinceStart = this.lastActivity;
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      if (this.lastActivity === quietSinceStart) this.trimAt(quietSinceStart);
    }, this.settleMs);
    this.settleTimer.unref();
  }

  private check(quietMs: number): void {
    if (Date.now() - this.lastActivity >= quietMs) this.trimAt(this.lastActivity);
  }

  /** One collection per burst, the burst named by its last activity. */
  private trimAt(lastActivity: number): void {
    if (this.trimmedAfter === lastActivity) return;
    this.trimmedAfter = lastActivity;
    this.collect();
  }

  stop(): void {
    clearInterval(this.timer);
    clearTimeout(this.settleTimer);
  }
}
