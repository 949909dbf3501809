import path from "node:path";
import { type Command, stringFlag, UsageError } from "../command.ts";

export const callCommand: Command = {
  name: "call",
  summary: "Call one tool directly, without a model turn",
  usage: "bdk call <tool> [--dir D] [--input JSON]",
  flags: [
    { name: "dir", type: "string", description: "project directory", default: "." },
    { name: "input", type: "string", description: "the tool input as JSON", default: "{}" },
    { name: "state-root", type: "string", description: "state directory", default: "<dir>/.bdk/state" },
  ],
  async run(args, io) {
    const [toolName, ...extra] = args.positionals;
    if (!toolName) throw new UsageError("name the tool to call");
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const input = parseInput(stringFlag(args, "input") ?? "{}");

    const { openAgent } = await import("../../server/host/open-agent.ts");
    const dir = path.resolve(io.cwd, stringFlag(args, "dir") ?? ".");
    const opened = await openAgent(dir, { stateRoot: stringFlag(args, "state-root"), env: io.env });
    try {
      const outcome = await opened.runtime.callTool(toolName, input, { principal: { type: "user", id: "local" } });
      io.stdout.write(`${JSON.stringify({ isError: outcome.isError, result: outcome.output }, null, 2)}\n`);
      return outcome.isError ? 1 : 0;
    } finally {
      await opened.close();
    }
  },
};

function parseInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input is not valid JSON (${(error as Error).message})`);
  }
}
