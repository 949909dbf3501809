import { addUsage, type AnyBdkEvent, type TokenUsage, ZERO_USAGE } from "../protocol/events.ts";

export interface TrajectoryToolCall {
  name: string;
  input: unknown;
  output: unknown;
  isError: boolean;
}

/** The shape `bdk run --json` and `bdk trajectory` print. */
export interface Trajectory {
  reply: string;
  toolCalls: TrajectoryToolCall[];
  usage: TokenUsage;
  sessionId: string;
  status: "completed" | "failed" | "cancelled" | "interrupted" | "running";
  error?: { code: string; message: string };
}

/**
 * Pairs `actions.requested` with `action.result` and reads the reply and
 * usage. With `fromIndex`, only events from that index on count (one turn).
 */
export function summarizeTrajectory(events: Iterable<AnyBdkEvent>, fromIndex = 0): Trajectory {
  const summary: Trajectory = { reply: "", toolCalls: [], usage: ZERO_USAGE, sessionId: "", status: "running" };
  const pending = new Map<string, TrajectoryToolCall>();

  for (const event of events) {
    summary.sessionId ||= event.sessionId;
    if (event.index < fromIndex) continue;
    switch (event.type) {
      case "actions.requested":
        for (const action of event.data.actions) {
          const call = { name: action.name, input: action.input, output: undefined, isError: false };
          pending.set(action.toolCallId, call);
          summary.toolCalls.push(call);
        }
        break;
      case "action.result": {
        const call = pending.get(event.data.toolCallId);
        if (call) {
          call.output = event.data.output;
          call.isError = event.data.isError;
        }
        break;
      }
      case "message.completed":
        if (event.data.finishReason !== "tool-calls") summary.reply = event.data.text;
        break;
      case "turn.completed":
        summary.reply = event.data.result || summary.reply;
        summary.usage = addUsage(summary.usage, event.data.usage);
        summary.status = "completed";
        break;
      case "turn.failed":
        summary.status = event.data.status;
        summary.error = { code: event.data.code, message: event.data.message };
        break;
    }
  }
  return summary;
}
