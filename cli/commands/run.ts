import path from "node:path";
import type { AnyBdkEvent } from "../../server/protocol/events.ts";
import { type Command, type CommandIO, type ParsedArgs, stringFlag, UsageError } from "../command.ts";
import { RemoteAgent } from "../remote.ts";
import { createTurnPrinter, trajectoryJson } from "../render.ts";

const TURN_END = new Set(["turn.completed", "turn.failed"]);

export const runCommand: Command = {
  name: "run",
  summary: "Run one turn and print the reply as it streams",
  usage: "bdk run [--dir D | --url U] --message M [--json | --text] [--session ID]",
  flags: [
    { name: "dir", type: "string", description: "project directory", default: "." },
    { name: "url", type: "string", description: "talk to a running server instead of loading the project" },
    { name: "slug", type: "string", description: "with --url on a multi-agent host: the agent's slug" },
    { name: "token", type: "string", description: "with --url: bearer token (default BDK_BEARER_TOKEN)" },
    { name: "message", type: "string", description: "the user message" },
    { name: "session", type: "string", description: "continue this session instead of starting one" },
    { name: "continuation-token", type: "string", description: "with --url --session: the session's token" },
    { name: "json", type: "boolean", description: "print { reply, toolCalls, usage, sessionId } as JSON" },
    { name: "text", type: "boolean", description: "print only the final reply text" },
    { name: "model", type: "string", description: "model id, overrides BDK_MODEL and agent.ts" },
    { name: "state-root", type: "string", description: "state directory", default: "<dir>/.bdk/state" },
  ],
  async run(args, io) {
    const message = stringFlag(args, "message") ?? args.positionals.join(" ");
    if (!message) throw new UsageError("--message is required");
    if (args.flags.json === true && args.flags.text === true) throw new UsageError("--json and --text cannot be combined");

    const { summarizeTrajectory } = await import("../../server/harness/trajectory.ts");
    const print = args.flags.json || args.flags.text ? undefined : createTurnPrinter(io);
    const seen: AnyBdkEvent[] = [];
    const collect = (turnId: string) => (event: AnyBdkEvent) => {
      if (event.turnId !== turnId) return false;
      seen.push(event);
      print?.(event);
      return TURN_END.has(event.type);
    };

    const sessionId = stringFlag(args, "url")
      ? await runRemote(args, io, message, collect)
      : await runLocal(args, io, message, collect);

    const trajectory = summarizeTrajectory(seen);
    trajectory.sessionId = sessionId;
    if (args.flags.json) io.stdout.write(trajectoryJson(trajectory));
    else if (args.flags.text && trajectory.reply) io.stdout.write(`${trajectory.reply}\n`);
    if (args.flags.text && trajectory.error) io.stderr.write(`turn ${trajectory.status}: ${trajectory.error.message}\n`);
    return trajectory.status === "completed" ? 0 : 1;
  },
};

type Collector = (turnId: string) => (event: AnyBdkEvent) => boolean;

async function runLocal(args: ParsedArgs, io: CommandIO, message: string, collect: Collector): Promise<string> {
  const { openAgent } = await import("../../server/host/open-agent.ts");
  const opened = await openAgent(path.resolve(io.cwd, stringFlag(args, "dir") ?? "."), {
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
    const onEvent = collect(handle.turnId);
    const stop = opened.runtime.follow(handle.sessionId, principal, 0, (events) => events.forEach(onEvent));
    await handle.done;
    stop();
    return handle.sessionId;
  } finally {
    await opened.close();
  }
}

async function runRemote(args: ParsedArgs, io: CommandIO, message: string, collect: Collector): Promise<string> {
  if (stringFlag(args, "model")) throw new UsageError("--model applies to in-process runs; the server chose its model");
  const remote = new RemoteAgent(stringFlag(args, "url")!, stringFlag(args, "slug"), stringFlag(args, "token") ?? io.env.BDK_BEARER_TOKEN);
  const sessionId = stringFlag(args, "session");
  let started: { sessionId: string; turnId: string };
  if (sessionId) {
    const token = stringFlag(args, "continuation-token");
    if (!token) throw new UsageError("--session with --url needs --continuation-token");
    started = await remote.request("POST", `/session/${sessionId}`, { message, continuationToken: token });
  } else {
    started = await remote.request("POST", "/session", { message });
  }
  await remote.follow(started.sessionId, 0, collect(started.turnId));
  return started.sessionId;
}
