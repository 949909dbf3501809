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
 */
export function jsonProblem(value: unknown, root = "result"): string | undefined {
  try {
    JSON.stringify(value);
    return undefined;
  } catch (error) {
    return locate(value, root, []) ?? (error instanceof Error ? error.message : String(error));
  }
}

/** Walks the value the way `JSON.stringify` does (toJSON first) to the first part it would refuse. */
function locate(value: unknown, at: string, ancestors: object[]): string | undefined {
  let current = value;
  if (current !== null && (typeof current === "object" || typeof current === "bigint")) {
    const toJSON = (current as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") {
      try {
        current = toJSON.call(current, "");
      } catch (error) {
        return `toJSON threw at ${at}: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
  }
  if (typeof current === "bigint") return `BigInt at ${at}`;
  if (current === null || typeof current !== "object") return undefined;
  if (ancestors.includes(current)) return `a circular reference at ${at}`;
  const inner = [...ancestors, current];
  const entries = Array.isArray(current) ? current.map((item, i) => [`${at}[${i}]`, i] as const) : Object.keys(current).map((key) => [childPath(at, key), key] as const);
  for (const [path, key] of entries) {
    let child: unknown;
    try {
      child = (current as Record<string | number, unknown>)[key];
    } catch (error) {
      return `reading ${path} threw: ${error instanceof Error ? error.message : String(error)}`;
    }
    const problem = locate(child, path, inner);
    if (problem) return problem;
  }
  return undefined;
}

function childPath(at: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${at}.${key}` : `${at}[${JSON.stringify(key)}]`;
}
