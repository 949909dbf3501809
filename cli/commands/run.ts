import path from "node:path";
import type { AnyBdkEvent } from "../../server/protocol/events.ts";
import { type Command, stringFlag, UsageError } from "../command.ts";
import { createTurnPrinter, trajectoryJson } from "../render.ts";

export const runCommand: Command = {
  name: "run",
  summary: "Run one turn and print the reply as it streams",
  usage: "bdk run [--dir D] --message M [--json | --text] [--session ID] [--model M]",
  flags: [
    { name: "dir", type: "string", description: "project directory", default: "." },
    { name: "message", type: "string", description: "the user message" },
    { name: "session", type: "string", description: "continue this session instead of starting one" },
    { name: "json", type: "boolean", description: "print { reply, toolCalls, usage, sessionId } as JSON" },
    { name: "text", type: "boolean", description: "print only the final reply text" },
    { name: "model", type: "string", description: "model id, overrides BDK_MODEL and agent.ts" },
    { name: "state-root", type: "string", description: "state directory", default: "<dir>/.bdk/state" },
  ],
  async run(args, io) {
    const message = stringFlag(args, "message") ?? args.positionals.join(" ");
    if (!message) throw new UsageError("--message is required");
    const json = args.flags.json === true;
    const textOnly = args.flags.text === true;
    if (json && textOnly) throw new UsageError("--json and --text cannot be combined");

    const { openAgent } = await import("../../server/host/open-agent.ts");
    const { summarizeTrajectory } = await import("../../server/harness/trajectory.ts");
    const dir = path.resolve(io.cwd, stringFlag(args, "dir") ?? ".");
    const opened = await openAgent(dir, {
      stateRoot: stringFlag(args, "state-root"),
      env: io.env,
      model: stringFlag(args, "model"),
    });
    try {
      const principal = { type: "user" as const, id: "local" };
      const sessionId = stringFlag(args, "session");
      const handle = sessionId
        ? opened.runtime.followUp(sessionId, { message, principal })
        : opened.runtime.startSession({ message, principal, channel: "cli" });

      const print = json || textOnly ? undefined : createTurnPrinter(io);
      const seen: AnyBdkEvent[] = [];
      const stop = opened.runtime.follow(handle.sessionId, principal, 0, (events) => {
        for (const event of events) {
          if (event.turnId !== handle.turnId) continue;
          seen.push(event);
          print?.(event);
        }
      });
      await handle.done;
      stop();

      const trajectory = summarizeTrajectory(seen);
      trajectory.sessionId = handle.sessionId;
      if (json) io.stdout.write(trajectoryJson(trajectory));
      else if (textOnly) {
        if (trajectory.reply) io.stdout.write(`${trajectory.reply}\n`);
        if (trajectory.error) io.stderr.write(`turn ${trajectory.status}: ${trajectory.error.message}\n`);
      }
      return trajectory.status === "completed" ? 0 : 1;
    } finally {
      await opened.close();
    }
  },
};
