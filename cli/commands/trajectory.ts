import { existsSync } from "node:fs";
import path from "node:path";
import { summarizeTrajectory } from "../../server/harness/trajectory.ts";
import type { AnyBdkEvent } from "../../server/protocol/events.ts";
import { readTrace } from "../../server/store/trace.ts";
import { type Command, stringFlag, UsageError } from "../command.ts";
import { trajectoryJson } from "../render.ts";

export const trajectoryCommand: Command = {
  name: "trajectory",
  summary: "Print the tool calls, reply and usage of a saved event stream",
  usage: "bdk trajectory --events <state-root>/traces/<sessionId>.ndjson",
  flags: [{ name: "events", type: "string", description: "an NDJSON event file (a session trace)" }],
  async run(args, io) {
    const file = stringFlag(args, "events") ?? args.positionals[0];
    if (!file) throw new UsageError("--events is required");
    const resolved = path.resolve(io.cwd, file);
    if (!existsSync(resolved)) {
      io.stderr.write(`bdk trajectory: no such file ${resolved}\n`);
      return 1;
    }
    const events = readTrace(resolved) as AnyBdkEvent[];
    io.stdout.write(trajectoryJson(summarizeTrajectory(events)));
    return 0;
  },
};
