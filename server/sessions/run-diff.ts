/**
 * Two runs side by side (a session and its fork, or any two sessions): the
 * turns after the point they share, each with its message, reply, tool calls,
 * tokens and time, paired by position, and what differs. Pure: events in,
 * comparison out.
 */
import { addUsage, type AnyBdkEvent, type TokenUsage, ZERO_USAGE } from "../protocol/events.ts";
import type { SessionRow } from "../store/types.ts";

export interface ToolCallSummary {
  name: string;
  input: unknown;
  output?: unknown;
  isError?: boolean;
  durationMs?: number;
}

export interface TurnSummary {
  /** Index of the turn's `message.received`. */
  index: number;
  message: string;
  reply: string;
  toolCalls: ToolCallSummary[];
  usage: TokenUsage;
  /** From `turn.completed` (absent for a turn that failed or is still running). */
  durationMs?: number;
  model?: string;
  /** `completed`, `failed`/`cancelled`/`interrupted`, or `running`. */
  status: string;
}

export interface RunSummary {
  sessionId: string;
  /** The first index compared: the fork point, or 0 for unrelated sessions. */
  from: number;
  turns: TurnSummary[];
  usage: TokenUsage;
  durationMs: number;
}

export interface TurnPair {
  position: number;
  before?: TurnSummary;
  after?: TurnSummary;
  messageChanged: boolean;
  replyChanged: boolean;
  toolCallsChanged: boolean;
}

export interface RunDiff {
  before: RunSummary;
  after: RunSummary;
  turns: TurnPair[];
  /** after − before. */
  delta: { inputTokens: number; outputTokens: number; durationMs: number };
  identical: boolean;
}

/** The turns of a session from `from` on, in order. */
export function summarizeRun(sessionId: string, events: readonly AnyBdkEvent[], from: number): RunSummary {
  const turns: TurnSummary[] = [];
  const calls = new Map<string, ToolCallSummary>();
  let current: TurnSummary | undefined;
  for (const event of events) {
    if (event.index < from) continue;
    if (event.type === "message.received") {
      current = { index: event.index, message: event.data.message, reply: "", toolCalls: [], usage: ZERO_USAGE, status: "running" };
      turns.push(current);
      continue;
    }
    if (!current) continue;
    switch (event.type) {
      case "turn.started":
        current.model = event.data.model;
        break;
      case "message.completed":
        current.reply = current.reply ? `${current.reply}\n${event.data.text}` : event.data.text;
        break;
      case "actions.requested":
        for (const action of event.data.actions) {
          const call: ToolCallSummary = { name: action.name, input: action.input };
          calls.set(action.toolCallId, call);
          current.toolCalls.push(call);
        }
        break;
      case "action.result": {
        const call = calls.get(event.data.toolCallId);
        if (call) Object.assign(call, { output: event.data.output, isError: event.data.isError, durationMs: event.data.durationMs });
        break;
      }
      case "turn.completed":
        Object.assign(current, { usage: event.data.usage, durationMs: event.data.durationMs, status: "completed", reply: event.data.result || current.reply });
        break;
      case "turn.failed":
        current.status = event.data.status;
        break;
    }
  }
  return {
    sessionId,
    from,
    turns,
    usage: turns.reduce((sum, turn) => addUsage(sum, turn.usage), ZERO_USAGE),
    durationMs: turns.reduce((sum, turn) => sum + (turn.durationMs ?? 0), 0),
  };
}

/** What the model saw of a call: its name, input and result (durations differ on every run). */
function callKey(call: ToolCallSummary): string {
  return JSON.stringify([call.name, call.input, call.output ?? null, call.isError ?? false]);
}

export function diffRuns(before: RunSummary, after: RunSummary): RunDiff {
  const count = Math.max(before.turns.length, after.turns.length);
  const turns: TurnPair[] = [];
  for (let position = 0; position < count; position++) {
    const a = before.turns[position];
    const b = after.turns[position];
    turns.push({
      position,
      ...(a ? { before: a } : {}),
      ...(b ? { after: b } : {}),
      messageChanged: a?.message !== b?.message,
      replyChanged: a?.reply !== b?.reply,
      toolCallsChanged: (a?.toolCalls.map(callKey).join("\n") ?? null) !== (b?.toolCalls.map(callKey).join("\n") ?? null),
    });
  }
  return {
    before,
    after,
    turns,
    delta: {
      inputTokens: after.usage.inputTokens - before.usage.inputTokens,
      outputTokens: after.usage.outputTokens - before.usage.outputTokens,
      durationMs: Math.round((after.durationMs - before.durationMs) * 100) / 100,
    },
    identical: turns.every((pair) => !pair.messageChanged && !pair.replyChanged && !pair.toolCallsChanged),
  };
}

/** Where two sessions' runs part: the fork point when one is cut from the other (or both from one source at one message), else 0. */
export function sharedStart(a: Pick<SessionRow, "id" | "fork">, b: Pick<SessionRow, "id" | "fork">): number {
  if (b.fork?.parentId === a.id) return b.fork.forkedAt;
  if (a.fork?.parentId === b.id) return a.fork.forkedAt;
  if (a.fork && b.fork && a.fork.parentId === b.fork.parentId && a.fork.forkedAt === b.fork.forkedAt) return a.fork.forkedAt;
  return 0;
}
