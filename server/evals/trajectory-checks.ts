/**
 * The trajectory assertions of the `t` API as pure functions of one turn's
 * events. Each returns whether it passed and a message that shows what the
 * turn actually did, so a failure explains itself.
 */
import { summarizeTrajectory, type TrajectoryToolCall } from "../harness/trajectory.ts";
import type { AnyBdkEvent } from "../protocol/events.ts";
import { describeValue, matchesPartially } from "./match.ts";

export interface CheckOutcome {
  passed: boolean;
  message: string;
}

const SKILL_LOADER = "load_skill";

function callsOf(events: readonly AnyBdkEvent[]): TrajectoryToolCall[] {
  return summarizeTrajectory(events).toolCalls;
}

function listCalls(calls: TrajectoryToolCall[]): string {
  if (calls.length === 0) return "no tool was called";
  return `calls: ${calls.map((call) => `${call.name} ${describeValue(call.input, 120)}`).join("; ")}`;
}

function turnState(events: readonly AnyBdkEvent[]): string {
  const trajectory = summarizeTrajectory(events);
  if (trajectory.status === "completed") return "the turn completed";
  if (trajectory.status !== "running") {
    return `the turn ${trajectory.status} (${trajectory.error?.code}): ${trajectory.error?.message}`;
  }
  const waiting = events.some((event) => event.type === "action.approval_requested") && !events.some((event) => event.type === "action.approval_resolved");
  return waiting
    ? "the turn has not finished: it waits for an approval (use await t.approve() or t.deny())"
    : "the turn has not finished";
}

export function succeeded(events: readonly AnyBdkEvent[]): CheckOutcome {
  return { passed: summarizeTrajectory(events).status === "completed", message: turnState(events) };
}

export function failed(events: readonly AnyBdkEvent[]): CheckOutcome {
  const status = summarizeTrajectory(events).status;
  const passed = status !== "completed" && status !== "running";
  return { passed, message: passed ? turnState(events) : `expected the turn to fail, but ${turnState(events)}` };
}

export function calledTool(events: readonly AnyBdkEvent[], name: string, options: { input?: unknown; count?: number } = {}): CheckOutcome {
  const calls = callsOf(events);
  const matching = calls.filter((call) => call.name === name && (options.input === undefined || matchesPartially(call.input, options.input)));
  const passed = options.count === undefined ? matching.length > 0 : matching.length === options.count;
  const wanted = `${options.count === undefined ? "a call" : `${options.count} call(s)`} to ${name}${
    options.input === undefined ? "" : ` with input matching ${describeValue(options.input, 160)}`
  }`;
  if (passed) return { passed, message: `saw ${wanted}` };
  const seen = options.count === undefined ? "" : `${matching.length} matched; `;
  return { passed, message: `expected ${wanted}; ${seen}${listCalls(calls)}` };
}

export function notCalledTool(events: readonly AnyBdkEvent[], name: string): CheckOutcome {
  const calls = callsOf(events).filter((call) => call.name === name);
  if (calls.length === 0) return { passed: true, message: `${name} was not called` };
  return { passed: false, message: `expected no call to ${name}; ${listCalls(calls)}` };
}

/** The names occur in this order (other calls may come between them). */
export function toolOrder(events: readonly AnyBdkEvent[], names: string[]): CheckOutcome {
  const order = callsOf(events).map((call) => call.name);
  let next = 0;
  for (const name of order) if (name === names[next]) next++;
  const passed = next === names.length;
  const actual = order.length > 0 ? order.join(" → ") : "no tool was called";
  return { passed, message: passed ? `called in order: ${names.join(" → ")}` : `expected ${names.join(" → ")}; actual order: ${actual}` };
}

export function calledSubagent(events: readonly AnyBdkEvent[], name: string): CheckOutcome {
  const called = events.flatMap((event) => (event.type === "subagent.called" ? [event.data.subagent] : []));
  if (called.includes(name)) return { passed: true, message: `subagent ${name} was called` };
  return { passed: false, message: `expected subagent ${name}; ${called.length > 0 ? `called: ${called.join(", ")}` : "no subagent was called"}` };
}

/** `load_skill` with the skill's name, or a tool reading its `.cursor/skills/<name>/` files. */
export function loadedSkill(events: readonly AnyBdkEvent[], name: string): CheckOutcome {
  const calls = callsOf(events);
  const loaded = calls.some(
    (call) =>
      (call.name === SKILL_LOADER && (call.input as { name?: unknown } | undefined)?.name === name) ||
      JSON.stringify(call.input ?? null).includes(`.cursor/skills/${name}/`),
  );
  if (loaded) return { passed: true, message: `skill ${name} was loaded` };
  const skills = calls.flatMap((call) => (call.name === SKILL_LOADER ? [String((call.input as { name?: unknown })?.name)] : []));
  return { passed: false, message: `expected skill ${name} to be loaded; ${skills.length > 0 ? `loaded: ${skills.join(", ")}` : listCalls(calls)}` };
}

export function usedNoTools(events: readonly AnyBdkEvent[]): CheckOutcome {
  const calls = callsOf(events);
  return { passed: calls.length === 0, message: calls.length === 0 ? "no tool was called" : `expected no tool calls; ${listCalls(calls)}` };
}

export function maxToolCalls(events: readonly AnyBdkEvent[], limit: number): CheckOutcome {
  const calls = callsOf(events);
  const passed = calls.length <= limit;
  return { passed, message: `${calls.length} tool call(s)${passed ? `, at most ${limit}` : `, expected at most ${limit}; ${listCalls(calls)}`}` };
}
