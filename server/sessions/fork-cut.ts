/**
 * Where a fork may be cut and what it inherits. A fork starts at one of the
 * source's user messages (`beforeIndex`: the events before it are whole
 * turns), or right after any event inside a turn (`afterIndex`): the fork
 * inherits the events up to it and its first turn picks that turn up.
 */
import { historyFromEvents } from "../harness/history.ts";
import { BdkError } from "../protocol/errors.ts";
import { type AnyBdkEvent, type EventDraft, type Principal, ZERO_USAGE } from "../protocol/events.ts";
import { cutsInsideTurn, isAfterFinalAnswer } from "../protocol/fork-points.ts";
import type { ForkedTurn } from "../store/model-calls.ts";
import type { RunOverrides } from "../store/types.ts";
import { parkedTurnFromEvents } from "./parked-turn.ts";
import { checkCallStubs } from "./run-overrides.ts";
import type { TurnStart } from "./turn-executor.ts";

/** `beforeIndex`: a `message.received` index; `afterIndex`: any event of a turn before its end. */
export type ForkPoint = { beforeIndex: number } | { afterIndex: number };

export interface ForkCut {
  /**
   * The source's events the fork inherits, as drafts for the fork's log
   * (same order, so the same indexes); after a cut inside a step whose
   * tools never ran, then the fork's own `step.completed` (finishReason
   * "cut") closing that step: the fork calls the model at the next one.
   */
  inherited: EventDraft[];
  /** The message the fork's first turn answers: the one at the cut, or the one of the turn it picks up. */
  message: string;
  /** Where the runs part turn by turn (`forkedAt`): the index of that message in the source. */
  forkedAt: number;
  /** A cut inside a turn: how the fork's first turn (`turnId`, the id its inherited events carry) picks it up. */
  pickUp?: TurnStart;
  /**
   * The source turns the fork inherits, for their model steps' records (the
   * Trace tab's content) to come along: under the id their events carry in
   * the fork (the same, or the fork's first turn's for the cut turn, which
   * keeps the records of the steps and subagent calls whose answer it inherited).
   */
  turns: ForkedTurn[];
}

/** `owner` and `channel` are the fork's own: its `session.started` says who holds it and where it lives. */
export function cutForFork(
  sourceId: string,
  events: readonly AnyBdkEvent[],
  point: ForkPoint,
  fork: { owner: Principal; channel: string; overrides: RunOverrides; turnId: string },
): ForkCut {
  const cut = "beforeIndex" in point ? atMessage(sourceId, events, point.beforeIndex) : insideTurn(sourceId, events, point.afterIndex);
  checkCallStubs(fork.overrides, answeredCalls(cut.kept));
  const inherited = cut.kept.map((event): EventDraft => {
    if (event.type === "session.started") {
      // The source's own fork facts (a fork of a fork) give way to this fork's: a cut at a message has no `cutAfter`.
      const { cutAfter: _sourceCut, ...started } = event.data;
      const cutAfter = "afterIndex" in point ? { cutAfter: point.afterIndex } : {};
      return {
        type: event.type,
        data: { ...started, principal: fork.owner, channel: fork.channel, parentId: sourceId, forkedAt: cut.forkedAt, ...cutAfter },
      };
    }
    const turnId = event.turnId === cut.cutTurnId ? fork.turnId : event.turnId;
    return (turnId ? { type: event.type, turnId, data: event.data } : { type: event.type, data: event.data }) as EventDraft;
  });
  if (cut.closesStep !== undefined) {
    inherited.push({ type: "step.completed", turnId: fork.turnId, data: { step: cut.closesStep, durationMs: 0, finishReason: "cut", usage: ZERO_USAGE } });
  }
  return { inherited, message: cut.message, forkedAt: cut.forkedAt, ...(cut.pickUp ? { pickUp: cut.pickUp } : {}), turns: inheritedTurns(cut, fork.turnId) };
}

function inheritedTurns(cut: Kept, forkTurnId: string): ForkedTurn[] {
  const ids = [...new Set(cut.kept.flatMap((event) => (event.turnId ? [event.turnId] : [])))];
  return ids.map((turnId) => {
    if (turnId !== cut.cutTurnId) return { sourceTurnId: turnId, forkTurnId: turnId };
    const steps = new Set<number>();
    const scopes = new Set<string>();
    let step: number | undefined;
    for (const event of cut.kept) {
      if (event.turnId !== turnId) continue;
      if (event.type === "step.started") step = event.data.step;
      // A step's record holds the model's answer: kept only when the fork's log holds that answer too.
      if (step !== undefined && ANSWERED.has(event.type)) steps.add(step);
      // A subagent's records come along once its task call has its result: before that, the fork runs the call (the subagent) again.
      if (event.type === "action.result") scopes.add(event.data.toolCallId);
    }
    return { sourceTurnId: turnId, forkTurnId, keeps: { steps: [...steps], scopes: [...scopes] } };
  });
}

/** The events that show a step's model call has answered (the record of that call is whole). */
const ANSWERED = new Set<AnyBdkEvent["type"]>(["actions.requested", "message.completed", "step.completed"]);

interface Kept {
  kept: AnyBdkEvent[];
  message: string;
  forkedAt: number;
  /** The source turn the fork's first turn continues (its inherited events take the fork's turn id). */
  cutTurnId?: string;
  pickUp?: TurnStart;
  /** The open step the cut leaves without a model answer to resume from. */
  closesStep?: number;
}

function atMessage(sourceId: string, events: readonly AnyBdkEvent[], beforeIndex: number): Kept {
  const at = events.find((event) => event.index === beforeIndex);
  if (!at || at.type !== "message.received") {
    throw new BdkError(
      "invalid_request",
      `beforeIndex ${beforeIndex} is not a user message of session ${sourceId}: a fork starts at a message.received event (indexes ${messageIndexes(events)}).`,
    );
  }
  return { kept: events.filter((event) => event.index < beforeIndex), message: at.data.message, forkedAt: beforeIndex };
}

/**
 * Right after an event of a turn: the fork's history is the events up to
 * it. Inside a step that asked for tools (after its `actions.requested`, or
 * after some or all of its results), the fork resumes that step: it runs
 * the calls left (its tool stubs apply) and closes the step. Anywhere else,
 * the model is called next on that history.
 */
function insideTurn(sourceId: string, events: readonly AnyBdkEvent[], afterIndex: number): Kept {
  const at = events.find((event) => event.index === afterIndex);
  const turnId = at?.turnId;
  const message = turnId ? events.find((event) => event.turnId === turnId && event.type === "message.received") : undefined;
  if (!at || !turnId || !message || message.type !== "message.received" || !cutsInsideTurn(at)) {
    throw new BdkError(
      "invalid_request",
      `afterIndex ${afterIndex} is not an event inside a turn of session ${sourceId}: a fork continues a turn from one of its events before the turn's end; to fork at a turn boundary, send beforeIndex with a message index (${messageIndexes(events)}).`,
    );
  }
  if (isAfterFinalAnswer(events, afterIndex)) {
    throw new BdkError(
      "invalid_request",
      `afterIndex ${afterIndex} comes after the final answer of its turn in session ${sourceId}: a fork there has nothing left to run; to have the turn answered again, send beforeIndex ${message.index} (its message), or cut after an event before the answer.`,
    );
  }
  const kept = keptForTurn(events, turnId, afterIndex);
  const turnEvents = kept.filter((event) => event.turnId === turnId);
  const lastStep = turnEvents.findLast((event) => event.type === "step.started");
  const stepOpen = lastStep !== undefined && !turnEvents.some((event) => event.type === "step.completed" && event.index > lastStep.index);
  // Resumed even when every call has its result: resuming closes the step (`step.completed`) before the model goes on.
  const parked = stepOpen ? parkedTurnFromEvents(kept, turnId) : undefined;
  let pickUp: TurnStart;
  let closesStep: number | undefined;
  if (parked) {
    pickUp = { resume: parked.parked, history: parked.history };
  } else {
    const started = turnEvents.some((event) => event.type === "turn.started");
    const nextStep = lastStep?.type === "step.started" ? lastStep.data.step + 1 : 0;
    if (stepOpen && lastStep?.type === "step.started") closesStep = lastStep.data.step;
    pickUp = { history: historyFromEvents(kept), ...(started ? { continueAt: nextStep } : {}) };
  }
  return { kept, message: message.data.message, forkedAt: message.index, cutTurnId: turnId, pickUp, ...(closesStep !== undefined ? { closesStep } : {}) };
}

/**
 * The events up to the cut. A cut can come after its turn ended: a person's
 * check of a call in doubt (`action.in_doubt_resolved`) is recorded once
 * recovery has closed the turn as interrupted, and maybe after later turns.
 * The fork picks that turn up with the checked answer, so what the source
 * did after the turn ended (the end itself, later turns) is not inherited.
 */
function keptForTurn(events: readonly AnyBdkEvent[], turnId: string, afterIndex: number): AnyBdkEvent[] {
  const end = events.find((event) => event.turnId === turnId && (event.type === "turn.failed" || event.type === "turn.completed") && event.index < afterIndex);
  return events.filter((event) => event.index <= afterIndex && (!end || event.index < end.index || (event.index > end.index && event.turnId === turnId)));
}

function messageIndexes(events: readonly AnyBdkEvent[]): string {
  return (
    events
      .filter((event) => event.type === "message.received")
      .map((event) => event.index)
      .join(", ") || "none"
  );
}

/** Calls with a result, by tool: the calls the model's history holds (an unanswered call is left out of it). */
function answeredCalls(events: readonly AnyBdkEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of events) {
    if (event.type === "action.result" || event.type === "action.in_doubt") counts.set(event.data.name, (counts.get(event.data.name) ?? 0) + 1);
  }
  return counts;
}
