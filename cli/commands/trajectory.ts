import { existsSync } from "node:fs";
import path from "node:path";
import { summarizeTrajectory } from "../../server/harness/trajectory.ts";
import type { AnyBdkEvent } from "../../server/protocol/events.ts";
import { formatRanges } from "../../server/store/trace.ts";
import { booleanFlag, type Command, stringFlag, UsageError } from "../command.ts";
import { trajectoryJson } from "../render.ts";

export const trajectoryCommand: Command = {
  name: "trajectory",
  summary: "Print the tool calls, reply and usage of a saved event stream",
  usage: "bdk trajectory --events <state-root>/traces/<sessionId>.ndjson [--allow-gaps]",
  flags: [
    { name: "events", type: "string", description: "an NDJSON event file (a session trace)" },
    { name: "allow-gaps", type: "boolean", description: "summarise a file with missing events anyway (with a warning)" },
  ],
  async run(args, io) {
    const file = stringFlag(args, "events") ?? args.positionals[0];
    if (!file) throw new UsageError("--events is required");
    const resolved = path.resolve(io.cwd, file);
    if (!existsSync(resolved)) {
      io.stderr.write(`bdk trajectory: no such file ${resolved}\n`);
      return 1;
    }
    // The store (drizzle, better-sqlite3) loads only for this command, not for every `bdk` start.
    const { readCheckedTrace } = await import("../../server/store/checked-trace.ts");
    const trace = readCheckedTrace(resolved);
    if (trace.restored) {
      io.stderr.write(`bdk trajectory: the trace lacked events ${formatRanges(trace.restored.ranges)}; restored them from ${trace.restored.database}\n`);
    }
    if (trace.gaps.length > 0) {
      const missing = `bdk trajectory: ${resolved} is missing events ${formatRanges(trace.gaps)} (indexes run from 0 without gaps)`;
      if (!booleanFlag(args, "allow-gaps")) {
        io.stderr.write(`${missing}; the summary would be incomplete. Read the trace inside its state root to restore them from the database, or pass --allow-gaps.\n`);
        return 1;
      }
      io.stderr.write(`${missing}; summarising what is there.\n`);
    }
    io.stdout.write(trajectoryJson(summarizeTrajectory(trace.events as AnyBdkEvent[])));
    return 0;
  },
};
