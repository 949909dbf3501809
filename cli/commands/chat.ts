import { createInterface, type Interface } from "node:readline";
import { type Command, UsageError } from "../command.ts";
import { createTurnPrinter, dimmed } from "../render.ts";
import { openDriver } from "../turn-driver.ts";
import { CONVERSATION_FLAGS, driveTurn } from "./run.ts";

export const chatCommand: Command = {
  name: "chat",
  summary: "Talk to the agent in the terminal (streaming, tool calls, approvals)",
  usage: "bdk chat [--dir D | --url U] [--session ID]",
  flags: CONVERSATION_FLAGS,
  async run(args, io) {
    if (!io.stdin) throw new UsageError("chat needs a standard input");
    const driver = await openDriver(args, io);
    const rl = createInterface({ input: io.stdin, output: io.stdout, terminal: Boolean(io.stdin.isTTY) });
    const readLine = lineReader(rl, io.stdout);
    // An approval question at the end of the input is answered "no".
    const ask = { ask: async (question: string) => (await readLine(question)) ?? "", close() {} };
    const print = createTurnPrinter(io, { reasoning: true });
    io.stdout.write("Type a message; /exit or Ctrl-D quits.\n");
    try {
      for (;;) {
        const line = await readLine("you> ");
        if (line === undefined || line.trim() === "/exit") break;
        if (!line.trim()) continue;
        const { sessionId } = await driveTurn(driver, line, io, print, ask);
        io.stdout.write(`${dimmed(io, `(session ${sessionId})`)}\n`);
      }
    } finally {
      rl.close();
      await driver.close();
    }
    return 0;
  },
};

/**
 * Prompts and resolves with the next line, or undefined once the input has
 * ended. Lines that arrive while a turn runs (piped input arrives at once)
 * wait their turn instead of being dropped.
 */
function lineReader(rl: Interface, output: NodeJS.WritableStream): (prompt: string) => Promise<string | undefined> {
  const queued: string[] = [];
  let waiting: ((line: string | undefined) => void) | undefined;
  let closed = false;
  const deliver = (line: string | undefined) => {
    const resolve = waiting;
    waiting = undefined;
    resolve?.(line);
  };
  rl.on("line", (line) => (waiting ? deliver(line) : queued.push(line)));
  rl.once("close", () => {
    closed = true;
    deliver(undefined);
  });
  return (prompt) => {
    if (!closed) {
      rl.setPrompt(prompt);
      rl.prompt();
    } else if (queued.length > 0) {
      output.write(prompt);
    }
    if (queued.length > 0) return Promise.resolve(queued.shift());
    if (closed) return Promise.resolve(undefined);
    return new Promise((resolve) => (waiting = resolve));
  };
}
