/**
 * Message content in the GenAI conventions' JSON shapes (input/output
 * messages, tool arguments and results), each text cut to the configured
 * limit so a span never carries a whole document. Cutting the texts inside
 * the structure, not the serialised JSON, keeps every attribute valid JSON.
 */
import type { ToolAction } from "../protocol/events.ts";

export type MessagePart =
  | { type: "text"; content: string }
  | { type: "reasoning"; content: string }
  | { type: "tool_call"; id: string; name: string; arguments: unknown }
  | { type: "tool_call_response"; id: string; result: unknown };

export interface ChatMessage {
  role: "user" | "assistant" | "tool";
  parts: MessagePart[];
  finish_reason?: string;
}

export function capText(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… [${text.length - limit} more characters]`;
}

/** A value for a content attribute: strings as they are, anything else as JSON, cut to `limit`. */
export function contentValue(value: unknown, limit: number): string {
  return capText(typeof value === "string" ? value : (JSON.stringify(value) ?? "null"), limit);
}

/** Structured values stay structured while small; a large one becomes its cut JSON text. */
function cappedValue(value: unknown, limit: number): unknown {
  if (typeof value === "string") return capText(value, limit);
  const json = JSON.stringify(value) ?? "null";
  return json.length <= limit ? value : capText(json, limit);
}

export function userMessage(text: string, limit: number): ChatMessage {
  return { role: "user", parts: [{ type: "text", content: capText(text, limit) }] };
}

export function assistantMessage(
  content: { reasoning?: string; text?: string; calls?: ToolAction[]; finishReason?: string },
  limit: number,
): ChatMessage {
  const parts: MessagePart[] = [];
  if (content.reasoning) parts.push({ type: "reasoning", content: capText(content.reasoning, limit) });
  if (content.text) parts.push({ type: "text", content: capText(content.text, limit) });
  for (const call of content.calls ?? []) {
    parts.push({ type: "tool_call", id: call.toolCallId, name: call.name, arguments: cappedValue(call.input, limit) });
  }
  return { role: "assistant", parts, ...(content.finishReason ? { finish_reason: content.finishReason } : {}) };
}

export function toolMessage(results: { toolCallId: string; output: unknown }[], limit: number): ChatMessage {
  return {
    role: "tool",
    parts: results.map((result) => ({ type: "tool_call_response", id: result.toolCallId, result: cappedValue(result.output, limit) })),
  };
}
