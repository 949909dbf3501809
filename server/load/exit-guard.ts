/**
 * A project's code runs in the kit's process, so its `process.exit` (at the
 * top of a module, in a tool, in a timer it set while loading) would end
 * `validate` as if all were well, or end the server and every session in it.
 * The kit itself never calls `process.exit` (the CLI sets `exitCode` and
 * returns), so once a project is loaded, a call from the project's files is
 * refused: it throws into the caller an error naming the file and line (a
 * tool's call becomes that tool's error; an import's call, that import's
 * failure). A call from a timer or event callback has no caller to throw
 * into: it is reported on stderr, and the process keeps running.
 */
import { writeSync } from "node:fs";
import path from "node:path";
import { inspect } from "node:util";
import { projectFrame } from "./project-frame.ts";

/** What a refused `process.exit` throws; its message names the file and line when the call came from one. */
export class ProjectExitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProjectExitError";
  }
}

const projectRoots = new Set<string>();
/** Imports running now, each with the way to fail it (a refusal thrown where nothing catches it ends the import). */
const importFailures = new Set<(error: Error) => void>();
let originalExit: typeof process.exit | undefined;
let originalReallyExit: ((code?: number) => never) | undefined;

/** The project file and line in the current stack, relative to its project, if any. */
function projectCaller(probe: Error): string | undefined {
  for (const root of projectRoots) {
    const frame = projectFrame(probe, root);
    if (frame) return `${path.relative(root, frame.absolute).split(path.sep).join("/")}:${frame.line}`;
  }
  return undefined;
}

function refusal(code: unknown): ProjectExitError | undefined {
  const where = projectCaller(new Error());
  const shown = `process.exit(${code ?? ""})`;
  if (importFailures.size > 0) return new ProjectExitError(`it called ${shown} while being imported; a module must not end the process when it loads`);
  if (where) return new ProjectExitError(`${where}: it called ${shown}; bot code must not end the process it shares with every session`);
  return undefined;
}

/**
 * Whether the project's call came straight from the event loop (a timer or
 * an event callback: below the project's frame there are only Node's own).
 * Thrown, it would reach every `uncaughtException` listener, and a framework
 * in the process (Next.js on Node 24) prints it with its stack.
 */
function fromCallback(probe: Error): boolean {
  const frames = (probe.stack ?? "").split("\n").slice(1);
  const own = frames.findIndex((frame) => [...projectRoots].some((root) => frame.includes(root + path.sep)));
  if (own < 0) return false;
  const below = frames.slice(own + 1);
  return below.length > 0 && below.every((frame) => /\(node:internal\/|at node:internal\/|\(native\)/.test(frame));
}

function refuse(refused: ProjectExitError, probe: Error): void {
  if (importFailures.size === 0 && fromCallback(probe)) {
    writeSync(2, `error    ${refused.message} (from a callback); ignored, the process keeps running.\n`);
    return;
  }
  throw refused;
}

function guardedExit(this: NodeJS.Process, code?: number | string | null): never {
  const refused = refusal(code);
  if (!refused) return originalExit!.call(process, code);
  refuse(refused, new Error());
  // Refused from a callback: the callback goes on, the process keeps running.
  return undefined as never;
}

/** `process.exit` ends in `reallyExit`; a project reaching for it directly is refused the same way. */
function guardedReallyExit(this: NodeJS.Process, code?: number): never {
  const refused = refusal(code);
  if (!refused) return originalReallyExit!.call(process, code);
  refuse(refused, new Error());
  return undefined as never;
}

function onUncaughtException(error: unknown): void {
  if (error instanceof ProjectExitError) {
    if (importFailures.size > 0) for (const fail of importFailures) fail(error);
    else writeSync(2, `error    ${error.message} (from a callback); ignored, the process keeps running.\n`);
    return;
  }
  // Another listener (a test runner) takes care of the rest; alone here, do what Node does without a listener.
  if (process.listenerCount("uncaughtException") > 1) return;
  writeSync(2, `${inspect(error)}\n`);
  originalExit!.call(process, 1);
}

/** Refuses `process.exit` from `projectRoot`'s files from now on (the first call installs the guard for the process's life). */
export function guardProcessExit(projectRoot: string): void {
  projectRoots.add(path.resolve(projectRoot));
  if (originalExit) return;
  originalExit = process.exit;
  process.exit = guardedExit as typeof process.exit;
  const internal = process as unknown as { reallyExit?: (code?: number) => never };
  if (typeof internal.reallyExit === "function") {
    originalReallyExit = internal.reallyExit;
    internal.reallyExit = guardedReallyExit;
  }
  process.on("uncaughtException", onUncaughtException);
}

/**
 * While an import runs, any `process.exit` is refused (the import is the only
 * project code there is yet). Returns a promise that rejects with a refusal
 * nothing caught (one from a timer the module set), and the release.
 */
export function refuseExitDuringImport(): { refused: Promise<never>; release: () => void } {
  let fail!: (error: Error) => void;
  const refused = new Promise<never>((_, reject) => (fail = reject));
  refused.catch(() => {});
  importFailures.add(fail);
  return { refused, release: () => importFailures.delete(fail) };
}
