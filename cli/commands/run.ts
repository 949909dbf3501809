import type { AnyBdkEvent } from "../../server/protocol/events.ts";
import { summarizeTrajectory } from "../../server/harness/trajectory.ts";
import { parseDecision, terminalPrompt } from "../ask.ts";
import { SLUG_FLAG } from "../agent-selection.ts";
import { type Command, type CommandIO, type FlagSpec, stringFlag, UsageError } from "../command.ts";
import { OBSERVABILITY_FLAGS } from "../observability-flags.ts";
import { createTurnPrinter, trajectoryJson } from "../render.ts";
import { openDriver, readWorkspaceFileFlags, type TurnDriver } from "../turn-driver.ts";

/** Flags shared by `run` and `chat`: where the agent is and which conversation. */
export const CONVERSATION_FLAGS: FlagSpec[] = [
  { name: "dir", type: "string", description: "project directory (or a folder of projects, with --slug)", default: "." },
  { name: "url", type: "string", description: "talk to a running server instead of loading the project" },
  SLUG_FLAG,
  { name: "token", type: "string", description: "with --url: bearer token (default BDK_BEARER_TOKEN)" },
  { name: "session", type: "string", description: "continue this session instead of starting one" },
  { name: "continuation-token", type: "string", description: "with --url --session: the session's token" },
  { name: "model", type: "string", description: "model id, overrides BDK_MODEL and agent.ts" },
  { name: "state-root", type: "string", description: "state directory", default: "<dir>/.bdk/state" },
];

const TURN_END = new Set(["turn.completed", "turn.failed"]);

/**
 * Sends one message and follows its turn to the end, printing as it goes
 * and asking the terminal about approvals (denied when there is no terminal).
 */
export async function driveTurn(
  driver: TurnDriver,
  message: string,
  io: CommandIO,
  onEvent: (event: AnyBdkEvent) => void,
  ask = terminalPrompt(io),
  workspaceFiles?: Record<string, string>,
): Promise<{ sessionId: string; events: AnyBdkEvent[] }> {
  const { sessionId, turnId } = await driver.send(message, workspaceFiles);
  const events: AnyBdkEvent[] = [];
  await driver.follow(sessionId, (event) => {
    if (event.turnId !== turnId) return false;
    events.push(event);
    onEvent(event);
    if (event.type === "action.approval_requested") {
      const { approvalId, name } = event.data;
      const decided = ask
        ? ask.ask(`Approve ${name}? [y/N] (a reason may follow the answer) `).then(parseDecision)
        : Promise.resolve({ approved: false, reason: "no terminal to ask for approval (use bdk chat or the playground)" });
      void decided
        .then((decision) => driver.resolveApproval(sessionId, approvalId, decision))
        .catch((error: Error) => io.stderr.write(`could not resolve approval ${approvalId}: ${error.message}\n`));
    }
    return TURN_END.has(event.type);
  });
  return { sessionId, events };
}

export const runCommand: Command = {
  name: "run",
  summary: "Run one turn and print the reply as it streams",
  usage: "bdk run [--dir D [--slug S] | --url U] --message M [--json | --text] [--session ID] [--workspace-file path=file]",
  flags: [
    { name: "message", type: "string", description: "the user message" },
    { name: "workspace-file", type: "strings", description: "path=file: put a local file into the session workspace (repeatable)" },
    { name: "json", type: "boolean", description: "print { reply, toolCalls, usage, sessionId } as JSON" },
    { name: "text", type: "boolean", description: "print only the final reply text" },
    ...CONVERSATION_FLAGS,
    ...OBSERVABILITY_FLAGS,
  ],
  async run(args, io) {
    const message = stringFlag(args, "message") ?? args.positionals.join(" ");
    if (!message) throw new UsageError("--message is required");
    if (args.flags.json === true && args.flags.text === true) throw new UsageError("--json and --text cannot be combined");

    const workspaceFiles = readWorkspaceFileFlags(args, io.cwd);
    const print = args.flags.json || args.flags.text ? () => {} : createTurnPrinter(io);
    const ask = terminalPrompt(io);
    const driver = await openDriver(args, io);
    let result: { sessionId: string; events: AnyBdkEvent[] };
    try {
      result = await driveTurn(driver, message, io, print, ask, workspaceFiles);
    } finally {
      ask?.close();
      await driver.close();
    }

    const trajectory = summarizeTrajectory(result.events);
    trajectory.sessionId = result.sessionId;
    if (args.flags.json) io.stdout.write(trajectoryJson(trajectory));
    else if (args.flags.text && trajectory.reply) io.stdout.write(`${trajectory.reply}\n`);
    if (args.flags.text && trajectory.error) io.stderr.write(`turn ${trajectory.status}: ${trajectory.error.message}\n`);
    return trajectory.status === "completed" ? 0 : 1;
  },
};
