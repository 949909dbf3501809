import type { AnyBdkEvent } from "../../api/types.ts";
import type { Tone } from "../../ui/Badge.tsx";

const previews = new WeakMap<AnyBdkEvent, string>();

/** One-line JSON of an event's data, computed once per event. */
export function eventPreview(event: AnyBdkEvent): string {
  let text = previews.get(event);
  if (text === undefined) {
    try {
      text = JSON.stringify(event.data) ?? "";
    } catch {
      text = String(event.data);
    }
    if (text.length > 400) text = `${text.slice(0, 399)}…`;
    previews.set(event, text);
  }
  return text;
}

export function eventTone(type: string): Tone {
  if (type.endsWith(".failed")) return "danger";
  if (type.startsWith("message.")) return "accent";
  if (type.startsWith("reasoning.") || type.startsWith("subagent.")) return "special";
  if (type.includes("approval")) return "warning";
  if (type.startsWith("action")) return "success";
  if (type.startsWith("turn.") || type.startsWith("step.")) return "info";
  return "neutral";
}
