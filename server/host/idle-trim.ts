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
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export interface IdleTrimOptions {
  /** How long without activity counts as the end of a burst. */
  quietMs?: number;
  /** The collection (default: V8's full GC); tests count calls. */
  collect?: () => void;
}

/** V8's `gc()`, reached without `--expose-gc` on the command line: the flag is set, then a fresh context sees the function. */
function fullCollection(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

export class IdleTrim {
  /** The start-up is a burst of its own (the agents, the store, Next.js): the first collection follows it. */
  private lastActivity = Date.now();
  private trimmedAfter = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly collect: () => void;

  constructor(options: IdleTrimOptions = {}) {
    const quietMs = options.quietMs ?? 30_000;
    this.collect = options.collect ?? fullCollection();
    // Checked four times per quiet period, so the collection lands within 1¼ quiet periods of the last request (a minute after a load ends, it has run).
    this.timer = setInterval(() => this.check(quietMs), quietMs / 4);
    this.timer.unref();
  }

  /** Something happened (a request arrived): the burst goes on. */
  touch(): void {
    this.lastActivity = Date.now();
  }

  private check(quietMs: number): void {
    if (this.lastActivity === this.trimmedAfter) return;
    if (Date.now() - this.lastActivity < quietMs) return;
    this.trimmedAfter = this.lastActivity;
    this.collect();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
