/**
 * A subagent row's children: the subagent's own steps (from the turn's
 * stored model calls, placed by their start and duration) and, under each,
 * the tool calls it asked for, with the results the next step was sent.
 */
import type { ModelCall } from "../../api/types.ts";
import type { TimelineRow } from "./timeline.ts";

interface ToolResultPart {
  type: "tool-result";
  toolCallId: string;
  output?: { type?: string; value?: unknown };
}

export function subagentRows(parent: TimelineRow, calls: readonly ModelCall[]): TimelineRow[] {
  const own = calls.filter((call) => call.scope === parent.scope).sort((a, b) => a.step - b.step);
  const rows: TimelineRow[] = [];
  own.forEach((call, position) => {
    const start = Date.parse(call.startedAt);
    const end = start + call.durationMs;
    const next = own[position + 1];
    rows.push({
      key: `${parent.key}#${call.step}`,
      kind: "step",
      label: `Step ${call.step}`,
      depth: parent.depth + 1,
      start,
      end,
      durationMs: call.durationMs,
      status: "ok",
      note: call.response.finishReason,
      tokens: { input: call.response.usage.inputTokens, output: call.response.usage.outputTokens },
      turnId: parent.turnId,
      step: call.step,
      scope: parent.scope,
    });
    const callsEnd = next ? Date.parse(next.startedAt) : (parent.end ?? end);
    for (const action of call.response.toolCalls) {
      const result = next && resultIn(next.request.messages, action.toolCallId);
      const isError = result?.output?.type?.startsWith("error") ?? false;
      rows.push({
        key: `${parent.key}:tool:${action.toolCallId}`,
        kind: "tool",
        label: action.name,
        depth: parent.depth + 2,
        start: end,
        end: Math.max(end, callsEnd),
        status: !result ? (parent.end === undefined ? "running" : "cancelled") : isError ? "error" : "ok",
        turnId: parent.turnId,
        scope: parent.scope,
        tool: { toolCallId: action.toolCallId, input: action.input, ...(result ? { output: result.output?.value, isError } : {}) },
      });
    }
  });
  return rows;
}

/** The tool result a step was sent for a call (AI SDK `tool` messages). */
function resultIn(messages: readonly unknown[], toolCallId: string): ToolResultPart | undefined {
  for (const message of messages) {
    const content = (message as { role?: string; content?: unknown }).content;
    if ((message as { role?: string }).role !== "tool" || !Array.isArray(content)) continue;
    const part = (content as ToolResultPart[]).find((candidate) => candidate.type === "tool-result" && candidate.toolCallId === toolCallId);
    if (part) return part;
  }
  return undefined;
}
