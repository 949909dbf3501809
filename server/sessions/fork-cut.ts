/**
 * Where a fork may be cut and what it inherits: a fork starts at one of the
 * source's user messages (`message.received`), so the events before it are
 * whole turns, and its history is exactly those events.
 */
import { BdkError } from "../protocol/errors.ts";
import type { AnyBdkEvent, EventDraft, Principal } from "../protocol/events.ts";
import type { RunOverrides } from "../store/types.ts";
import { checkCallStubs } from "./run-overrides.ts";

export interface ForkCut {
  /** The source's events before the cut, as drafts for the fork's log (same order, so the same indexes). */
  inherited: EventDraft[];
  /** The message at the cut: what the fork re-sends when no edited message is given. */
  message: string;
}

/** `owner` and `channel` are the fork's own: its `session.started` says who holds it and where it lives. */
export function cutForFork(
  sourceId: string,
  events: readonly AnyBdkEvent[],
  beforeIndex: number,
  fork: { owner: Principal; channel: string; overrides: RunOverrides },
): ForkCut {
  const at = events.find((event) => event.index === beforeIndex);
  if (!at || at.type !== "message.received") {
    const messages = events.filter((event) => event.type === "message.received").map((event) => event.index);
    throw new BdkError(
      "invalid_request",
      `beforeIndex ${beforeIndex} is not a user message of session ${sourceId}: a fork starts at a message.received event (indexes ${messages.join(", ") || "none"}).`,
    );
  }
  const before = events.filter((event) => event.index < beforeIndex);
  checkCallStubs(fork.overrides, answeredCalls(before));
  const inherited = before.map((event): EventDraft => {
      if (event.type === "session.started") {
        return { type: event.type, data: { ...event.data, principal: fork.owner, channel: fork.channel, parentId: sourceId, forkedAt: beforeIndex } };
      }
      return (event.turnId ? { type: event.type, turnId: event.turnId, data: event.data } : { type: event.type, data: event.data }) as EventDraft;
    });
  return { inherited, message: at.data.message };
}

/** Calls with a result, by tool: the calls the model's history holds (an unanswered call is left out of it). */
function answeredCalls(events: readonly AnyBdkEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of events) {
    if (event.type === "action.result" || event.type === "action.in_doubt") counts.set(event.data.name, (counts.get(event.data.name) ?? 0) + 1);
  }
  return counts;
}
