/**
 * The boundary between the harness and a tool's own code: a call never
 * outlives its turn's stop or its time limit (a tool that ignores its abort
 * signal is left behind, not awaited), and what it returns must be JSON
 * before it goes into the event log.
 */

/** The time limit of a call whose tool sets no `timeoutMs`. */
export const DEFAULT_TOOL_TIMEOUT_MS = 10 * 60_000;
/** How long a stopped call may take to settle by itself before it is left running. */
export const ABORT_GRACE_MS = 1000;
/** setTimeout's largest delay; longer limits mean "none". */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export type GuardedCall<T> =
  | { settled: true; value: T }
  | { settled: true; error: unknown }
  | { settled: false; why: "stopped" | "timed out"; afterMs: number };

/**
 * Runs `call` with a signal that fires when `signal` does or the time limit
 * passes, and resolves as soon as either happens (after a short grace for a
 * tool that does stop), whether or not the call itself ever settles.
 */
export async function guardCall<T>(
  call: (signal: AbortSignal) => Promise<T> | T,
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<GuardedCall<T>> {
  const started = performance.now();
  const limit = new AbortController();
  const signal = AbortSignal.any([options.signal, limit.signal]);
  const timers: NodeJS.Timeout[] = [];
  let onAbort = () => {};
  try {
    return await new Promise<GuardedCall<T>>((resolve) => {
      const giveUp = () =>
        resolve({ settled: false, why: options.signal.aborted ? "stopped" : "timed out", afterMs: Math.round(performance.now() - started) });
      onAbort = () => timers.push(setTimeout(giveUp, ABORT_GRACE_MS));
      signal.addEventListener("abort", onAbort, { once: true });
      if (signal.aborted) onAbort();
      if (options.timeoutMs < MAX_TIMER_MS) {
        timers.push(setTimeout(() => limit.abort(new Error(`The call timed out after ${options.timeoutMs} ms.`)), options.timeoutMs));
      }
      let running: Promise<T> | T;
      try {
        running = call(signal);
      } catch (error) {
        resolve({ settled: true, error });
        return;
      }
      Promise.resolve(running).then(
        (value) => resolve({ settled: true, value }),
        (error: unknown) => resolve({ settled: true, error }),
      );
    });
  } finally {
    signal.removeEventListener("abort", onAbort);
    for (const timer of timers) clearTimeout(timer);
  }
}

/**
 * Why `value` cannot be stored as JSON, naming where: `BigInt at result.total`,
 * `a circular reference at result.self`. Undefined when `JSON.stringify` takes it.
 * Linear in the value's size and safe at any depth (no recursion): a result
 * nested 100,000 levels deep is reported, not a RangeError.
 */
export function jsonProblem(value: unknown, root = "result"): string | undefined {
  try {
    JSON.stringify(value);
    return undefined;
  } catch (error) {
    const walked = locate(value, root);
    if (walked.problem) return walked.problem;
    // Nothing JSON refuses, yet stringify ran out of stack: the nesting itself is the problem.
    if (error instanceof RangeError) return `nested too deeply to store as JSON (${walked.depth} levels)`;
    return error instanceof Error ? error.message : String(error);
  }
}

interface Frame {
  object: object;
  keys: (string | number)[];
  next: number;
}

const messageOfThrown = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Walks the value the way `JSON.stringify` does (toJSON first) to the first
 * part it would refuse, with its own stack: the path is kept as segments
 * and spelt out only for the report.
 */
function locate(value: unknown, root: string): { problem?: string; depth: number } {
  const segments: string[] = [];
  const ancestors = new Set<object>();
  const stack: Frame[] = [];
  let depth = 0;
  const at = () => shownPath(root, segments);
  /** Enters `raw` (already at `segments`): a problem, or undefined (a frame pushed for an object or array). */
  const enter = (raw: unknown): string | undefined => {
    let current = raw;
    if (current !== null && (typeof current === "object" || typeof current === "bigint")) {
      const toJSON = (current as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === "function") {
        try {
          current = toJSON.call(current, "");
        } catch (error) {
          return `toJSON threw at ${at()}: ${messageOfThrown(error)}`;
        }
      }
    }
    if (typeof current === "bigint") return `BigInt at ${at()}`;
    if (current !== null && typeof current === "object") {
      if (ancestors.has(current)) return `a circular reference at ${at()}`;
      ancestors.add(current);
      stack.push({ object: current, keys: Array.isArray(current) ? current.map((_, i) => i) : Object.keys(current), next: 0 });
      depth = Math.max(depth, stack.length);
      return undefined;
    }
    segments.pop();
    return undefined;
  };
  const problem = enter(value);
  if (problem) return { problem, depth };
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next === frame.keys.length) {
      stack.pop();
      ancestors.delete(frame.object);
      segments.pop();
      continue;
    }
    const key = frame.keys[frame.next++]!;
    segments.push(typeof key === "number" ? `[${key}]` : childSegment(key));
    let child: unknown;
    try {
      child = (frame.object as Record<string | number, unknown>)[key];
    } catch (error) {
      return { problem: `reading ${at()} threw: ${messageOfThrown(error)}`, depth };
    }
    const found = enter(child);
    if (found) return { problem: found, depth };
  }
  return { depth };
}

function childSegment(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** The path, its middle elided past a few dozen levels (a path 100,000 levels deep is not read). */
function shownPath(root: string, segments: string[]): string {
  const EDGE = 10;
  if (segments.length <= 3 * EDGE) return root + segments.join("");
  return `${root}${segments.slice(0, EDGE).join("")}…(${segments.length - 2 * EDGE} levels)…${segments.slice(-EDGE).join("")}`;
}
