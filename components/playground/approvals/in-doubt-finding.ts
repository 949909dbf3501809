import type { InDoubtResolution } from "../../../server/protocol/events.ts";

/** What the person who checked a call in doubt found, as the chat and the trace say it. */
export function inDoubtFinding(resolution: InDoubtResolution): string {
  return resolution === "done" ? "it took effect" : "it did not take effect";
}
