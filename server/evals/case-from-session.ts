/**
 * "Save as eval case": a session's conversation as an `evals/<name>.eval.ts`
 * file the user reads and edits. Each user message becomes a `t.send`, each
 * turn's outcome and tool calls become assertions (`t.calledTool` with the
 * input observed), approvals become `t.approve()` / `t.deny()`.
 */
import type { AnyBdkEvent } from "../protocol/events.ts";

interface ObservedTurn {
  message: string;
  /** Files the message brought: their names are recorded, not their contents. */
  files: string[];
  calls: { name: string; input: unknown }[];
  decisions: { approved: boolean; reason?: string }[];
  outcome: "completed" | "failed" | "unfinished";
}

/** Every turn from the first message: a fork's inherited turns are part of its conversation, so they are replayed too. */
function turnsOf(events: readonly AnyBdkEvent[]): ObservedTurn[] {
  const turns: ObservedTurn[] = [];
  for (const event of events) {
    if (event.type === "message.received") {
      turns.push({ message: event.data.message, files: event.data.workspaceFiles ?? [], calls: [], decisions: [], outcome: "unfinished" });
      continue;
    }
    const turn = turns[turns.length - 1];
    if (!turn) continue;
    if (event.type === "actions.requested") turn.calls.push(...event.data.actions.map(({ name, input }) => ({ name, input })));
    else if (event.type === "action.approval_resolved") turn.decisions.push({ approved: event.data.approved, reason: event.data.reason });
    else if (event.type === "turn.completed") turn.outcome = "completed";
    else if (event.type === "turn.failed") turn.outcome = "failed";
  }
  return turns;
}

/** A JS literal of a JSON value (JSON strings are valid JS string literals). */
const literal = (value: unknown) => JSON.stringify(value ?? null);

function turnLines(turn: ObservedTurn): string[] {
  const lines = [`await t.send(${literal(turn.message)});`];
  if (turn.files.length > 0) {
    lines.unshift(`// This message brought ${turn.files.join(", ")}: pass them again with t.send(message, { workspaceFiles: { "path": "contents" } }).`);
  }
  for (const decision of turn.decisions) {
    lines.push(decision.approved ? "await t.approve();" : `await t.deny(${decision.reason ? literal(decision.reason) : ""});`);
  }
  if (turn.outcome === "completed") lines.push("t.succeeded();");
  else if (turn.outcome === "failed") lines.push("t.failed();");
  if (turn.calls.length === 0) lines.push("t.usedNoTools();");
  const counts = new Map<string, number>();
  for (const call of turn.calls) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  for (const call of turn.calls) {
    // Two calls of one tool with different inputs are each asserted; `input` is a partial match, so trim what need not hold.
    lines.push(`t.calledTool(${literal(call.name)}, { input: ${literal(call.input)} });`);
  }
  if (counts.size > 1) lines.push(`t.toolOrder(${literal([...counts.keys()])});`);
  return lines;
}

export interface EvalCaseSource {
  sessionId: string;
  title: string | null;
  events: readonly AnyBdkEvent[];
  savedAt: Date;
}

/** The file's text. Throws when the session has no user message to replay. */
export function evalCaseSource(source: EvalCaseSource): string {
  const turns = turnsOf(source.events);
  if (turns.length === 0) throw new Error(`Session ${source.sessionId} has no user message to replay.`);
  const body = turns.map((turn) => turnLines(turn).map((line) => `    ${line}`).join("\n")).join("\n\n");
  return `// Saved from session ${source.sessionId} on ${source.savedAt.toISOString().slice(0, 10)} by "Save as eval case".
// The messages are replayed as sent; the assertions are what that run did. Edit them:
// loosen an input to the keys that matter, add t.check(t.reply, includes(/.../)) or t.judge(...).
import { defineEval } from "@cursor/bdk/evals";

export default defineEval({
  description: ${literal(source.title ?? `Replay of ${source.sessionId}`)},
  async test(t) {
${body}
  },
});
`;
}
