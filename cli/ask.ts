import { createInterface, type Interface } from "node:readline";
import type { CommandIO } from "./command.ts";

/** A line-based prompt on the terminal; undefined when stdin is not a TTY (no one to ask). */
export function terminalPrompt(io: CommandIO): { ask(question: string): Promise<string>; close(): void } | undefined {
  if (!io.stdin?.isTTY) return undefined;
  let rl: Interface | undefined;
  return {
    ask(question) {
      rl ??= createInterface({ input: io.stdin!, output: io.stdout });
      return new Promise((resolve) => rl!.question(question, resolve));
    },
    close() {
      rl?.close();
    },
  };
}

/** Reads an approval decision: `y` approves; anything else denies, with an optional reason after a space. */
export function parseDecision(answer: string): { approved: boolean; reason?: string } {
  const trimmed = answer.trim();
  const [word, ...rest] = trimmed.split(/\s+/);
  const reason = rest.join(" ") || undefined;
  return /^(y|yes|approve)$/i.test(word ?? "") ? { approved: true, reason } : { approved: false, reason };
}
