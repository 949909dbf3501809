import type { ModelMessage } from "ai";
import { checkedInDoubtResult, historyFromEvents, inDoubtResult } from "../harness/history.ts";
import type { ParkedStep } from "../harness/run-turn.ts";
import type { AnyBdkEvent } from "../protocol/events.ts";

/**
 * Reconstructs a turn that was parked on an approval when the process died
 * (or a step a fork resumes): the conversation before the parked step, and
 * that step's calls and the results already recorded for them.
 */
export function parkedTurnFromEvents(
  events: AnyBdkEvent[],
  turnId: string,
): { history: ModelMessage[]; parked: ParkedStep } | undefined {
  let stepStart = -1;
  for (let i = events.length - 1; i >= 0; i--) {
    if (events[i].turnId === turnId && events[i].type === "step.started") {
      stepStart = i;
      break;
    }
  }
  if (stepStart === -1) return undefined;
  const start = events[stepStart] as AnyBdkEvent & { type: "step.started" };
  const parked: ParkedStep = { step: start.data.step, text: "", calls: [], results: new Map() };
  for (const event of events.slice(stepStart + 1)) {
    if (event.turnId !== turnId) continue;
    if (event.type === "message.completed") parked.text = event.data.text;
    if (event.type === "actions.requested") parked.calls.push(...event.data.actions);
    if (event.type === "action.result") parked.results.set(event.data.toolCallId, event.data);
    // A call in doubt counts as answered (never run again): by its in-doubt answer, or by what a person found when they checked it.
    if (event.type === "action.in_doubt") parked.results.set(event.data.toolCallId, inDoubtResult(event.data));
    if (event.type === "action.in_doubt_resolved" && parked.results.has(event.data.toolCallId)) parked.results.set(event.data.toolCallId, checkedInDoubtResult(event.data));
  }
  if (parked.calls.length === 0) return undefined;
  return { history: historyFromEvents(events.slice(0, stepStart)), parked };
}
