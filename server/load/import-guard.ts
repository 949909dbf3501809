/**
 * Importing a project's module runs its top-level code in this process, and
 * three things there would take the process down without a word: a
 * top-level await that never settles (Node exits 13 once nothing else is
 * pending, printing nothing), a call of `process.exit` (exit-guard.ts), and
 * code that never yields (an endless loop: `validate` and `serve` hang). The
 * guard turns the first two into import failures of that file. Against the
 * third nothing on the main thread can run, so a watchdog thread prints which
 * file it is and ends the process (`bdk dev` checks an edit in a child
 * process before it reloads, see hot-reload.ts, so a bad edit ends only that).
 */
import path from "node:path";
import { Worker } from "node:worker_threads";
import { guardProcessExit, refuseExitDuringImport } from "./exit-guard.ts";

export const DEFAULT_IMPORT_TIMEOUT_MS = 20_000;

/** How long past the deadline the watchdog waits for the main thread's own timeout before it concludes the thread is stuck. */
const WATCHDOG_GRACE_MS = 2_000;

/** `BDK_IMPORT_TIMEOUT_MS`, else 20 s: an import that takes longer fails. */
export function importTimeoutMs(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env.BDK_IMPORT_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_IMPORT_TIMEOUT_MS;
}

export class ImportTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`its import did not finish within ${seconds(timeoutMs)} (a top-level await that never settles?)`);
    this.name = "ImportTimeoutError";
  }
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

// Plain JavaScript, evaluated in its own thread: it must not depend on the kit's TypeScript loader, and
// runs as CommonJS or as a module (\`--input-type=module\` reaches eval'd workers), hence getBuiltinModule.
// It sleeps on the shared state (no message per import: two per tool were a tenth of a warm validate's CPU)
// until the deadline it read, and says which (\`sleeping\`): the main thread wakes it only for an earlier
// deadline than that, which a run of imports, each due later than the one before, never has.
const WATCHDOG_SOURCE = `
const { workerData } = process.getBuiltinModule("node:worker_threads");
const { writeSync } = process.getBuiltinModule("node:fs");
const generation = new Int32Array(workerData, 0, 2);
const deadline = new Float64Array(workerData, 8, 1);
const sleeping = new Float64Array(workerData, 16, 1);
const report = new Uint8Array(workerData, 24);
for (;;) {
  const seen = Atomics.load(generation, 0);
  const at = deadline[0];
  const left = at - Date.now();
  if (at === 0 || left > 0) {
    sleeping[0] = at;
    Atomics.wait(generation, 0, seen, at === 0 ? undefined : left);
    continue;
  }
  // The main thread is stuck (it would have moved the deadline): the report it left is the stuck import's.
  writeSync(2, report.slice(0, generation[1]));
  process.kill(process.pid, "SIGKILL");
}
`;

const REPORT_BYTES = 4096;
/**
 * Shared with the watchdog: [generation, report length] (Int32), the deadline (Float64, ms; 0: none), the
 * deadline the watchdog sleeps until (Float64, ms; 0: until woken), the report (UTF-8).
 */
const shared = new SharedArrayBuffer(24 + REPORT_BYTES);
const generation = new Int32Array(shared, 0, 2);
const deadline = new Float64Array(shared, 8, 1);
const sleeping = new Float64Array(shared, 16, 1);
const reportBytes = new Uint8Array(shared, 24);
const armed = new Map<number, { at: number; report: string }>();
const encoder = new TextEncoder();

let watchdog: Worker | undefined;
let nextId = 0;

function startWatchdog(): void {
  if (!watchdog) {
    watchdog = new Worker(WATCHDOG_SOURCE, { eval: true, stdout: false, stderr: false, workerData: shared });
    // It only watches: it never keeps the process alive.
    watchdog.unref();
  }
}

/** Hands the watchdog the import due first (none: it sleeps until the next one). */
function arm(): void {
  let first: { at: number; report: string } | undefined;
  for (const entry of armed.values()) if (!first || entry.at < first.at) first = entry;
  deadline[0] = 0;
  if (first) {
    generation[1] = encoder.encodeInto(first.report, reportBytes).written;
    deadline[0] = first.at;
  }
  // A watchdog that has not slept yet reads the new generation, so it never waits on the old deadline; one
  // asleep until a time before this deadline wakes by itself and reads it.
  Atomics.add(generation, 0, 1);
  const wakesBy = sleeping[0];
  if (first && !(wakesBy !== 0 && wakesBy <= first.at)) Atomics.notify(generation, 0);
}

/** The file as a person at this terminal finds it. */
function shown(absoluteFile: string): string {
  const relative = path.relative(process.cwd(), absoluteFile);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : absoluteFile;
}

/**
 * Runs `load` (the import of `absoluteFile`, a file of the project at
 * `projectRoot`) under the guard; rejects with
 * `ImportTimeoutError` after `timeoutMs`. The deadline's timer also keeps the
 * event loop alive, so an import that never settles cannot end the process.
 */
export async function guardedImport<T>(absoluteFile: string, projectRoot: string, timeoutMs: number, load: () => Promise<T>): Promise<T> {
  const id = nextId++;
  startWatchdog();
  armed.set(id, {
    at: Date.now() + timeoutMs + WATCHDOG_GRACE_MS,
    report: `error    ${shown(absoluteFile)}  its import has kept the process busy for over ${seconds(timeoutMs)} (an endless loop at the top level?); stopping.\n`,
  });
  arm();
  guardProcessExit(projectRoot);
  const exitRefusal = refuseExitDuringImport();
  let timer: NodeJS.Timeout | undefined;
  // Started before load(), like the watchdog's deadline: load() transpiles the module and runs its synchronous part
  // before it returns, and a timer started only then (after a slow first load of Babel, say) left the main thread
  // less than the watchdog's grace to report a module that never settles before the watchdog killed the process.
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ImportTimeoutError(timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([load(), exitRefusal.refused, timedOut]);
  } finally {
    clearTimeout(timer);
    exitRefusal.release();
    armed.delete(id);
    arm();
  }
}
