import type { ModelMessage, ToolModelMessage } from "ai";
import type { ToolResultOutput } from "@ai-sdk/provider-utils";
import type { AnyBdkEvent, EventDataByType, ToolAction } from "../protocol/events.ts";
import { toModelOutput } from "./execute-tool.ts";

/**
 * Rebuilds the conversation the model saw from a session's events, so a
 * session continues after a restart with no other copy of its messages.
 * Tool calls without a result (an interrupted step) are left out: providers
 * refuse a call with no answer. A call in doubt (cut off by a crash) is
 * answered with an error saying so, so the model checks before repeating it;
 * once a person has checked it (`action.in_doubt_resolved`), the answer says
 * what they found instead.
 */
export function historyFromEvents(events: Iterable<AnyBdkEvent>): ModelMessage[] {
  const messages: ModelMessage[] = [];
  let text = "";
  let calls: ToolAction[] = [];
  const results = new Map<string, { output: unknown; isError: boolean; name: string }>();
  /** Answers of calls in doubt, by call id, for a later resolution to rewrite. */
  const inDoubtCalls = new Set<string>();
  const inDoubtAnswers = new Map<string, { type: "tool-result"; output: ToolResultOutput }>();

  const flushStep = () => {
    const answered = calls.filter((call) => results.has(call.toolCallId));
    if (text || answered.length > 0) messages.push(assistantMessage(text, answered));
    if (answered.length > 0) {
      const content: ToolModelMessage["content"] = answered.map((call) => {
        const result = results.get(call.toolCallId)!;
        const part = { type: "tool-result" as const, toolCallId: call.toolCallId, toolName: call.name, output: toModelOutput(result) };
        if (inDoubtCalls.has(call.toolCallId)) inDoubtAnswers.set(call.toolCallId, part);
        return part;
      });
      messages.push({ role: "tool", content });
    }
    text = "";
    calls = [];
    results.clear();
  };

  for (const event of events) {
    switch (event.type) {
      case "message.received":
        flushStep();
        messages.push({ role: "user", content: event.data.message });
        break;
      case "message.completed":
        text = event.data.text;
        break;
      case "actions.requested":
        calls.push(...event.data.actions);
        break;
      case "action.result":
        results.set(event.data.toolCallId, event.data);
        break;
      case "action.in_doubt":
        results.set(event.data.toolCallId, { name: event.data.name, ...inDoubtResult(event.data) });
        inDoubtCalls.add(event.data.toolCallId);
        break;
      case "action.in_doubt_resolved": {
        const answer = inDoubtAnswers.get(event.data.toolCallId);
        if (answer) answer.output = toModelOutput(checkedInDoubtResult(event.data));
        break;
      }
      case "step.completed":
      case "turn.failed":
      case "turn.completed":
        flushStep();
        break;
    }
  }
  flushStep();
  return messages;
}

/** A call in doubt's answer: it is never run again, and the model checks before repeating it. */
export function inDoubtResult(data: EventDataByType["action.in_doubt"]): { output: string; isError: true } {
  return { isError: true, output: inDoubtOutput(data.name, data.message) };
}

/** A call in doubt's answer once a person has checked it: what they found. */
export function checkedInDoubtResult(data: EventDataByType["action.in_doubt_resolved"]): { output: string; isError: boolean } {
  const { name, resolution, by, note } = data;
  const found = resolution === "done" ? "it took effect; do not repeat it" : "it did not take effect; repeat it only if it is still wanted";
  return { isError: resolution !== "done", output: `tool \`${name}\` was cut off by a restart; ${by} has since checked: ${found}.${note ? ` Their note: ${note}` : ""}` };
}

/** What the model reads for a call in doubt, and what a turn gets instead of running it again. */
export function inDoubtOutput(name: string, message: string): string {
  return `tool \`${name}\` is in doubt: ${message}`;
}

/** The assistant side of a step: its text and the tool calls it made. */
export function assistantMessage(text: string, calls: ToolAction[]): ModelMessage {
  return {
    role: "assistant",
    content: [
      ...(text ? [{ type: "text" as const, text }] : []),
      ...calls.map((call) => ({
        type: "tool-call" as const,
        toolCallId: call.toolCallId,
        toolName: call.name,
        input: call.input,
      })),
    ],
  };
}
