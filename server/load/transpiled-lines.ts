/**
 * For each project file esbuild transpiled, the source line of each line of
 * the code that runs (esbuild-transform.ts): a stack frame's line is read
 * through it, so an error names the line the author wrote. Babel's output
 * keeps the source's lines, and its files have no entry.
 *
 * The stacks themselves say the source's lines too: once a file has an
 * entry, `Error.prepareStackTrace` rewrites the line of each frame in such a
 * file, so that `error.stack` as a project's own code logs it, the kit's
 * logs and the terminal name the line the author wrote. jiti evaluates a
 * module with `vm.runInThisContext`, for which Node applies no source map
 * (`--enable-source-maps`, `process.setSourceMapsEnabled`), hence the hook.
 * A hook set before (a test runner's) still formats the stack; Node's own
 * source-mapped stacks are left alone (no hook when they are enabled).
 */
const sourceLinesByFile = new Map<string, readonly number[]>();
/** Errors whose stack was written with the source's lines (`stackHasSourceLines`). */
const mappedStacks = new WeakSet<object>();
let hookInstalled = false;

/** What the latest transform of `file` gave (none: its lines are the source's). */
export function recordSourceLines(file: string, lines: readonly number[] | undefined): void {
  if (lines) {
    sourceLinesByFile.set(file, lines);
    installStackHook();
  } else sourceLinesByFile.delete(file);
}

/** The source line of line `line` (1-based) of the code that runs for `file`. */
export function sourceLine(file: string, line: number): number {
  return sourceLinesByFile.get(file)?.[line - 1] ?? line;
}

/** Whether `error.stack` names the source's lines already (else its frames are to be read through `sourceLine`). */
export function stackHasSourceLines(error: unknown): boolean {
  return typeof error === "object" && error !== null && mappedStacks.has(error);
}

/** Node's own format of a stack (lib/internal/errors.js), for when no other hook formats it. */
function defaultStack(error: Error, sites: NodeJS.CallSite[]): string {
  let header: string;
  try {
    header = Error.prototype.toString.call(error);
  } catch {
    header = "<error>";
  }
  return sites.length === 0 ? header : `${header}\n    at ${sites.join("\n    at ")}`;
}

function installStackHook(): void {
  if (hookInstalled) return;
  hookInstalled = true;
  if (process.sourceMapsEnabled) return;
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, sites) => {
    let stack = previous ? previous(error, sites) : defaultStack(error, sites);
    if (typeof stack !== "string") return stack;
    // Frame i is the stack's line (sites.length - i) from the end: only its location, at its end, is rewritten, never
    // text elsewhere (the message, another frame whose location merely starts the same).
    const lines = stack.split("\n");
    const firstFrame = lines.length - sites.length;
    let mapped = false;
    sites.forEach((site, i) => {
      const file = site.getFileName();
      const line = site.getLineNumber();
      const column = site.getColumnNumber();
      if (!file || line === null || column === null || !sourceLinesByFile.has(file) || firstFrame + i < 0) return;
      const frame = lines[firstFrame + i];
      const location = `${file}:${line}:${column}`;
      const at = frame.endsWith(`${location})`) ? frame.length - location.length - 1 : frame.endsWith(location) ? frame.length - location.length : -1;
      if (at === -1) return;
      lines[firstFrame + i] = `${frame.slice(0, at)}${file}:${sourceLine(file, line)}:${column}${frame.slice(at + location.length)}`;
      mapped = true;
    });
    if (!mapped) return stack;
    if (typeof error === "object" && error !== null) mappedStacks.add(error);
    return lines.join("\n");
  };
}
