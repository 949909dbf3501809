/**
 * The fork dialog's fields turned into a `POST /session/:id/fork` body, and
 * the tool calls a turn made (what a stub can replace). Pure, so the rules
 * the dialog enforces are tested without a browser.
 */
import type { AnyBdkEvent, ForkRequest, RunOverrides } from "../../api/types.ts";
import type { TranscriptItem, UserItem } from "../chat/transcript.ts";

export interface StubDraft {
  enabled: boolean;
  /** The result as JSON text. */
  output: string;
  isError: boolean;
}

/** A stub of one call: the `call`-th call of `name` in the session, as the fork API counts it. */
export interface CallStubDraft extends StubDraft {
  name: string;
  call: number;
  /** The source's call it was drafted from. */
  toolCallId: string;
}

export interface ForkDraft {
  /** Before a message (`beforeIndex`), or right after an event inside a turn (`afterIndex`: no message is sent). */
  cut: { beforeIndex: number } | { afterIndex: number };
  /** The message at the cut; the fork re-sends it unless `message` differs. */
  original: string;
  message: string;
  model: string;
  /** `id=value`, one per line. */
  params: string;
  instructions: string;
  stubs: Record<string, StubDraft>;
  callStubs: CallStubDraft[];
}

export type ForkFormResult = { ok: true; request: ForkRequest } | { ok: false; problem: string };

/** The tool calls of the turn answering the message at `beforeIndex`, with their observed results and their number in the session. */
function turnCalls(items: readonly TranscriptItem[], beforeIndex: number): (CallStubDraft & { answered: boolean })[] {
  const at = items.findIndex((item) => item.kind === "user" && item.firstIndex === beforeIndex);
  const numbers = new Map<string, number>();
  const calls: (CallStubDraft & { answered: boolean })[] = [];
  for (let i = 0; at >= 0 && i < items.length; i++) {
    const item = items[i];
    if (item.kind === "user" && i > at) break;
    if (item.kind !== "turn") continue;
    for (const part of item.parts) {
      if (part.kind !== "tool") continue;
      // The API counts the calls the model's history holds: those that got a result.
      const answered = part.status !== "running" && part.status !== "awaiting_approval" && part.status !== "awaiting_authorization";
      const call = (numbers.get(part.name) ?? 0) + (answered ? 1 : 0);
      numbers.set(part.name, call);
      if (i < at) continue;
      const output = JSON.stringify(part.output ?? null, null, 2);
      calls.push({ name: part.name, call, toolCallId: part.toolCallId, enabled: false, output, isError: part.status === "error", answered });
    }
  }
  return calls;
}

/** Tools called in the turn answering the message at `beforeIndex`, with their last observed result. */
export function observedCalls(items: readonly TranscriptItem[], beforeIndex: number): Record<string, StubDraft> {
  return Object.fromEntries(turnCalls(items, beforeIndex).map(({ output, isError, name }) => [name, { enabled: false, output, isError }]));
}

/** Each call of that turn as a single-call stub, the one with `stubbedCallId` enabled. */
export function observedCallStubs(items: readonly TranscriptItem[], beforeIndex: number, stubbedCallId?: string): CallStubDraft[] {
  return turnCalls(items, beforeIndex)
    .filter((call) => call.answered)
    .map(({ answered: _, ...call }) => ({ ...call, enabled: call.toolCallId === stubbedCallId }));
}

/** The user message a tool call's turn answers: where a fork re-running that call is cut. */
export function messageBeforeCall(items: readonly TranscriptItem[], toolCallId: string): UserItem | undefined {
  let message: UserItem | undefined;
  for (const item of items) {
    if (item.kind === "user") message = item;
    if (item.kind === "turn" && item.parts.some((part) => part.kind === "tool" && part.toolCallId === toolCallId)) return message;
  }
  return undefined;
}

/** The result as JSON, or undefined when the text is not JSON. */
function parsed(stub: StubDraft): { output: unknown; isError?: true } | undefined {
  try {
    return { output: JSON.parse(stub.output), ...(stub.isError ? { isError: true as const } : {}) };
  } catch {
    return undefined;
  }
}

export function forkRequest(draft: ForkDraft): ForkFormResult {
  const overrides: RunOverrides = {};
  if (draft.model.trim()) overrides.model = draft.model.trim();
  const params: { id: string; value: string }[] = [];
  for (const [number, line] of draft.params.split("\n").entries()) {
    if (!line.trim()) continue;
    const equals = line.indexOf("=");
    if (equals <= 0) return { ok: false, problem: `Params line ${number + 1}: write id=value (e.g. effort=high).` };
    params.push({ id: line.slice(0, equals).trim(), value: line.slice(equals + 1).trim() });
  }
  if (params.length) overrides.params = params;
  if (draft.instructions.trim()) overrides.instructions = draft.instructions;
  const toolResults: NonNullable<RunOverrides["toolResults"]> = {};
  for (const [name, stub] of Object.entries(draft.stubs)) {
    if (!stub.enabled) continue;
    const result = parsed(stub);
    if (!result) return { ok: false, problem: `The stubbed result of ${name} is not valid JSON.` };
    toolResults[name] = result;
  }
  if (Object.keys(toolResults).length) overrides.toolResults = toolResults;
  const toolCallResults: NonNullable<RunOverrides["toolCallResults"]> = [];
  for (const stub of draft.callStubs) {
    if (!stub.enabled) continue;
    const result = parsed(stub);
    if (!result) return { ok: false, problem: `The stubbed result of ${stub.name} call ${stub.call} is not valid JSON.` };
    toolCallResults.push({ name: stub.name, call: stub.call, ...result });
  }
  if (toolCallResults.length) overrides.toolCallResults = toolCallResults;
  const overridden = Object.keys(overrides).length ? { overrides } : {};
  if ("afterIndex" in draft.cut) return { ok: true, request: { afterIndex: draft.cut.afterIndex, ...overridden } };
  const message = draft.message.trim();
  if (!message) return { ok: false, problem: "The message is empty." };
  return {
    ok: true,
    request: {
      beforeIndex: draft.cut.beforeIndex,
      ...(draft.message !== draft.original ? { message: draft.message } : {}),
      ...overridden,
    },
  };
}

/**
 * What a fork cut right after `afterIndex` can stub: every tool the cut
 * turn called (with its last result), and each of its calls answered after
 * the cut, numbered as the fork API counts them (calls with a result, in
 * order, the inherited ones included).
 */
export function stubsAfterCut(events: readonly AnyBdkEvent[], afterIndex: number): { message: string; stubs: Record<string, StubDraft>; callStubs: CallStubDraft[] } {
  const turnId = events.find((event) => event.index === afterIndex)?.turnId;
  const names = new Map<string, string>();
  const numbers = new Map<string, number>();
  const stubs: Record<string, StubDraft> = {};
  const callStubs: CallStubDraft[] = [];
  let message = "";
  for (const event of events) {
    if (event.type === "message.received" && event.turnId === turnId) message = event.data.message;
    if (event.type === "actions.requested" && event.turnId === turnId) {
      for (const action of event.data.actions) {
        names.set(action.toolCallId, action.name);
        stubs[action.name] ??= { enabled: false, output: "null", isError: false };
      }
    }
    if (event.type !== "action.result" && event.type !== "action.in_doubt") continue;
    const call = (numbers.get(event.data.name) ?? 0) + 1;
    numbers.set(event.data.name, call);
    if (!names.has(event.data.toolCallId)) continue;
    const output = JSON.stringify(event.type === "action.result" ? (event.data.output ?? null) : event.data.message, null, 2);
    const isError = event.type === "action.in_doubt" || event.data.isError;
    stubs[event.data.name] = { enabled: false, output, isError };
    if (event.index > afterIndex) callStubs.push({ name: event.data.name, call, toolCallId: event.data.toolCallId, enabled: false, output, isError });
  }
  return { message, stubs, callStubs };
}
