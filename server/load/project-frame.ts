/** Where in a project's own code an error was thrown, from its stack (lines as written: see transpiled-lines.ts). */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sourceLine, stackHasSourceLines } from "./transpiled-lines.ts";

const STACK_FRAME = /\(?((?:file:\/\/)?\/[^():\n]+):(\d+):\d+\)?$/;

/** `transpiled`: whether the text's line is one of the code that runs (not yet read through `sourceLine`). */
function projectLocationIn(text: string, root: string, transpiled = true): { absolute: string; line: number } | undefined {
  const frame = STACK_FRAME.exec(text.trim());
  if (!frame) return undefined;
  const absolute = frame[1].startsWith("file://") ? fileURLToPath(frame[1]) : frame[1];
  if (!absolute.startsWith(root) || absolute.slice(root.length).split(path.sep).includes("node_modules")) return undefined;
  return { absolute, line: transpiled ? sourceLine(absolute, Number(frame[2])) : Number(frame[2]) };
}

/**
 * Every place in the project's files (not its node_modules) the error names:
 * its stack frames, innermost first, then a `file:line:column` at the end of
 * a message line (a transform error names the file it could not parse).
 */
export function projectFrames(error: unknown, rootDir: string): { absolute: string; line: number }[] {
  const root = rootDir.endsWith(path.sep) ? rootDir : rootDir + path.sep;
  const stack = error instanceof Error ? (error.stack ?? "").split("\n").slice(1) : [];
  const message = (error instanceof Error ? error.message : String(error)).split("\n");
  const mapped = stackHasSourceLines(error);
  return [...stack.map((line) => projectLocationIn(line, root, !mapped)), ...message.map((line) => projectLocationIn(line, root))].filter((frame) => frame !== undefined);
}

/** The first stack frame in the project's files (not its node_modules), or undefined. */
export function projectFrame(error: unknown, rootDir: string): { absolute: string; line: number } | undefined {
  const root = rootDir.endsWith(path.sep) ? rootDir : rootDir + path.sep;
  const stack = error instanceof Error ? (error.stack ?? "") : "";
  const mapped = stackHasSourceLines(error);
  for (const line of stack.split("\n").slice(1)) {
    const frame = projectLocationIn(line, root, !mapped);
    if (frame) return frame;
  }
  return undefined;
}

/** `bot/channels/github.ts:12`, relative to the project, when the error came from its code. */
export function projectLocation(error: unknown, rootDir: string): string | undefined {
  const frame = projectFrame(error, rootDir);
  return frame && `${path.relative(rootDir, frame.absolute)}:${frame.line}`;
}
