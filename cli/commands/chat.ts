import { createInterface } from "node:readline";
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
    const ask = { ask: (question: string) => new Promise<string>((resolve) => rl.question(question, resolve)), close() {} };
    const print = createTurnPrinter(io, { reasoning: true });
    io.stdout.write("Type a message; /exit or Ctrl-D quits.\n");
    try {
      for (;;) {
        const line = await new Promise<string | undefined>((resolve) => {
          rl.question("you> ", resolve);
          rl.once("close", () => resolve(undefined));
        });
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
