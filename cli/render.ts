import type { AnyBdkEvent } from "../server/protocol/events.ts";
import type { Trajectory } from "../server/harness/trajectory.ts";
import type { CommandIO } from "./command.ts";

const useColor = (io: CommandIO) => Boolean(io.stdout.isTTY) && !io.env.NO_COLOR;

/** Dimmed text on a colour terminal, plain otherwise. */
export const dimmed = (io: CommandIO, text: string) => (useColor(io) ? `\x1b[2m${text}\x1b[22m` : text);

/** Prints a turn as it streams: reply text live, tool calls and results as lines. */
export function createTurnPrinter(io: CommandIO, options: { reasoning?: boolean } = {}): (event: AnyBdkEvent) => void {
  const dim = (text: string) => dimmed(io, text);
  const red = (text: string) => (useColor(io) ? `\x1b[31m${text}\x1b[39m` : text);
  let midLine = false;
  const line = (text: string) => {
    if (midLine) io.stdout.write("\n");
    midLine = false;
    io.stdout.write(`${text}\n`);
  };
  return (event) => {
    switch (event.type) {
      case "reasoning.appended":
        if (options.reasoning) {
          io.stdout.write(dim(event.data.delta));
          midLine = !event.data.delta.endsWith("\n");
        }
        break;
      case "reasoning.completed":
        if (options.reasoning && midLine) line("");
        break;
      case "action.approval_requested":
        line(`? ${event.data.name} needs approval: ${compact(event.data.input)}`);
        break;
      case "action.approval_resolved":
        line(dim(`${event.data.approved ? "approved" : "denied"} by ${event.data.by}${event.data.reason ? `: ${event.data.reason}` : ""}`));
        break;
      case "message.appended":
        io.stdout.write(event.data.delta);
        midLine = !event.data.delta.endsWith("\n");
        break;
      case "actions.requested":
        for (const action of event.data.actions) line(dim(`→ ${action.name} ${compact(action.input)}`));
        break;
      case "action.authorization_required":
        line(`? ${event.data.connection} needs authorization: click Connect in the playground (POST ${event.data.authorizePath})`);
        break;
      case "action.result":
        line(dim(`← ${event.data.name}${event.data.isError ? red(" error") : ""} ${compact(event.data.output)}`));
        break;
      case "action.in_doubt":
        line(red(`! ${event.data.name} in doubt: ${event.data.message}`));
        break;
      case "subagent.called":
        line(dim(`⇢ subagent ${event.data.subagent}: ${compact(event.data.prompt)}`));
        break;
      case "subagent.completed":
        line(dim(`⇠ subagent ${event.data.subagent}${event.data.isError ? red(" failed") : " done"}`));
        break;
      case "artifact.tagged":
        line(dim(`✎ artifact ${event.data.kind}/${event.data.key} "${event.data.title}" (${event.data.id})`));
        break;
      case "turn.queued":
        line(dim(`(queued at position ${event.data.position})`));
        break;
      case "turn.completed":
        if (midLine) io.stdout.write("\n");
        midLine = false;
        break;
      case "turn.failed":
        if (midLine) io.stdout.write("\n");
        midLine = false;
        io.stderr.write(`${red(`turn ${event.data.status}`)} (${event.data.code}): ${event.data.message}\n`);
        break;
    }
  };
}

/** `run --json` and `trajectory` print exactly this. */
export function trajectoryJson(trajectory: Trajectory): string {
  const { reply, toolCalls, usage, sessionId, error } = trajectory;
  return `${JSON.stringify({ reply, toolCalls, usage, sessionId, ...(error ? { error } : {}) }, null, 2)}\n`;
}

function compact(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (text === undefined) return "";
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
