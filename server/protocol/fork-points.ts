/**
 * Where a fork may be cut right after an event (`afterIndex`): one rule for
 * the server, which refuses other cuts, and the playground, which offers
 * "Fork from here" only where the server accepts it.
 */
import type { AnyBdkEvent } from "./events.ts";

/**
 * An event of a turn before its end. A message has its own fork (before
 * it), and a turn's end is a turn boundary: the next message's fork.
 */
export function cutsInsideTurn(event: AnyBdkEvent): boolean {
  return !!event.turnId && event.type !== "message.received" && event.type !== "turn.completed" && event.type !== "turn.failed";
}

/**
 * The event at `index` comes at or after its turn's final answer: the
 * model's text in the last step of a turn that completed. A fork cut there
 * would call the model on a history that already ends with its answer; to
 * ask again, a fork starts before the turn's message.
 */
export function isAfterFinalAnswer(events: readonly AnyBdkEvent[], index: number): boolean {
  const turnId = events.find((event) => event.index === index)?.turnId;
  if (!turnId) return false;
  let answer: number | undefined;
  for (const event of events) {
    if (event.turnId !== turnId) continue;
    if (event.type === "message.completed") answer = event.index;
    // Text followed by tool calls or another step (a result the bot rejected) was not the answer.
    else if (event.type === "actions.requested" || event.type === "step.started") answer = undefined;
    else if (event.type === "turn.completed") return answer !== undefined && index >= answer;
  }
  return false;
}

/** A fork can be cut right after the event at `index`. */
export function canForkAfter(events: readonly AnyBdkEvent[], index: number): boolean {
  const event = events.find((candidate) => candidate.index === index);
  return !!event && cutsInsideTurn(event) && !isAfterFinalAnswer(events, index);
}
