/**
 * The fork dialog's fields turned into a `POST /session/:id/fork` body, and
 * the tool calls a turn made (what a stub can replace). Pure, so the rules
 * the dialog enforces are tested without a browser.
 */
import type { ForkRequest, RunOverrides } from "../../api/types.ts";
import type { TranscriptItem } from "../chat/transcript.ts";

export interface StubDraft {
  enabled: boolean;
  /** The result as JSON text. */
  output: string;
  isError: boolean;
}

export interface ForkDraft {
  beforeIndex: number;
  /** The message at the cut; the fork re-sends it unless `message` differs. */
  original: string;
  message: string;
  model: string;
  /** `id=value`, one per line. */
  params: string;
  instructions: string;
  stubs: Record<string, StubDraft>;
}

export type ForkFormResult = { ok: true; request: ForkRequest } | { ok: false; problem: string };

/** Tools called in the turn answering the message at `beforeIndex`, with their last observed result. */
export function observedCalls(items: readonly TranscriptItem[], beforeIndex: number): Record<string, StubDraft> {
  const at = items.findIndex((item) => item.kind === "user" && item.firstIndex === beforeIndex);
  const stubs: Record<string, StubDraft> = {};
  for (let i = at + 1; at >= 0 && i < items.length; i++) {
    const item = items[i];
    if (item.kind === "user") break;
    if (item.kind !== "turn") continue;
    for (const part of item.parts) {
      if (part.kind !== "tool") continue;
      stubs[part.name] = { enabled: false, output: JSON.stringify(part.output ?? null, null, 2), isError: part.status === "error" };
    }
  }
  return stubs;
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
    try {
      toolResults[name] = { output: JSON.parse(stub.output), ...(stub.isError ? { isError: true } : {}) };
    } catch {
      return { ok: false, problem: `The stubbed result of ${name} is not valid JSON.` };
    }
  }
  if (Object.keys(toolResults).length) overrides.toolResults = toolResults;
  const message = draft.message.trim();
  if (!message) return { ok: false, problem: "The message is empty." };
  return {
    ok: true,
    request: {
      beforeIndex: draft.beforeIndex,
      ...(draft.message !== draft.original ? { message: draft.message } : {}),
      ...(Object.keys(overrides).length ? { overrides } : {}),
    },
  };
}
