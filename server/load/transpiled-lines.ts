/**
 * For each project file esbuild transpiled, the source line of each line of
 * the code that runs (esbuild-transform.ts): a stack frame's line is read
 * through it, so an error names the line the author wrote. Babel's output
 * keeps the source's lines, and its files have no entry.
 */
const sourceLinesByFile = new Map<string, readonly number[]>();

/** What the latest transform of `file` gave (none: its lines are the source's). */
export function recordSourceLines(file: string, lines: readonly number[] | undefined): void {
  if (lines) sourceLinesByFile.set(file, lines);
  else sourceLinesByFile.delete(file);
}

/** The source line of line `line` (1-based) of the code that runs for `file`. */
export function sourceLine(file: string, line: number): number {
  return sourceLinesByFile.get(file)?.[line - 1] ?? line;
}
