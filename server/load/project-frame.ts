/** Where in a project's own code an error was thrown, from its stack (jiti maps frames back to the source). */
import path from "node:path";
import { fileURLToPath } from "node:url";

const STACK_FRAME = /\(?((?:file:\/\/)?\/[^():\n]+):(\d+):\d+\)?$/;

/** The first stack frame in the project's files (not its node_modules), or undefined. */
export function projectFrame(error: unknown, rootDir: string): { absolute: string; line: number } | undefined {
  const stack = error instanceof Error ? (error.stack ?? "") : "";
  const root = rootDir.endsWith(path.sep) ? rootDir : rootDir + path.sep;
  for (const line of stack.split("\n").slice(1)) {
    const frame = STACK_FRAME.exec(line.trim());
    if (!frame) continue;
    const absolute = frame[1].startsWith("file://") ? fileURLToPath(frame[1]) : frame[1];
    if (absolute.startsWith(root) && !absolute.slice(root.length).split(path.sep).includes("node_modules")) {
      return { absolute, line: Number(frame[2]) };
    }
  }
  return undefined;
}

/** `bot/channels/github.ts:12`, relative to the project, when the error came from its code. */
export function projectLocation(error: unknown, rootDir: string): string | undefined {
  const frame = projectFrame(error, rootDir);
  return frame && `${path.relative(rootDir, frame.absolute)}:${frame.line}`;
}
