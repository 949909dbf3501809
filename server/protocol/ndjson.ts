import type { AnyBdkEvent } from "./events.ts";

/** One serialisation per event, however many followers receive it. */
const lines = new WeakMap<AnyBdkEvent, string>();

export function toNdjson(events: readonly AnyBdkEvent[]): string {
  let text = "";
  for (const event of events) {
    let line = lines.get(event);
    if (line === undefined) {
      line = `${JSON.stringify(event)}\n`;
      lines.set(event, line);
    }
    text += line;
  }
  return text;
}
