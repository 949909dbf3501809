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
const WATCHDOG_SOURCE = `
const { parentPort } = process.getBuiltinModule("node:worker_threads");
const { writeSync } = process.getBuiltinModule("node:fs");
const armed = new Map();
parentPort.on("message", (message) => {
  if (message.type === "end") {
    clearTimeout(armed.get(message.id));
    armed.delete(message.id);
    return;
  }
  armed.set(message.id, setTimeout(() => {
    writeSync(2, message.report);
    process.kill(process.pid, "SIGKILL");
  }, message.ms));
});
`;

let watchdog: Worker | undefined;
let nextId = 0;

function startWatchdog(): Worker {
  if (!watchdog) {
    watchdog = new Worker(WATCHDOG_SOURCE, { eval: true, stdout: false, stderr: false });
    // It only watches: it never keeps the process alive.
    watchdog.unref();
  }
  return watchdog;
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
  const dog = startWatchdog();
  dog.postMessage({
    type: "start",
    id,
    ms: timeoutMs + WATCHDOG_GRACE_MS,
    report: `error    ${shown(absoluteFile)}  its import has kept the process busy for over ${seconds(timeoutMs)} (an endless loop at the top level?); stopping.\n`,
  });
  guardProcessExit(projectRoot);
  const exitRefusal = refuseExitDuringImport();
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      load(),
      exitRefusal.refused,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ImportTimeoutError(timeoutMs)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    exitRefusal.release();
    dog.postMessage({ type: "end", id });
  }
}
