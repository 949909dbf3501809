/**
 * Clearing a call in doubt (issue 16, item 4): a person checked whether a
 * write call cut off by a crash took effect, and says so. The ledger row
 * leaves the approvals inbox and the session records who decided what, so
 * the chat and the model's history show it.
 */
import { BdkError } from "../protocol/errors.ts";
import type { InDoubtResolution } from "../protocol/events.ts";
import type { ToolCallRow } from "../store/types.ts";
import type { SessionEventLog } from "./event-log.ts";

export interface InDoubtDecision {
  resolution: InDoubtResolution;
  note?: string;
}

/** Resolves the session's call in doubt with `toolCallId` (404 when it has none) and appends `action.in_doubt_resolved`. */
export function resolveInDoubtCall(log: SessionEventLog, sessionId: string, toolCallId: string, decision: InDoubtDecision, by: string): Promise<ToolCallRow> {
  return log.transaction(sessionId, async (tx, append) => {
    const row = await tx.toolCalls.resolveInDoubt(sessionId, toolCallId);
    if (!row) throw new BdkError("not_found", `No call ${toolCallId} in doubt in session ${sessionId}.`);
    const note = decision.note === undefined ? {} : { note: decision.note };
    await append([{ type: "action.in_doubt_resolved", turnId: row.turnId, data: { toolCallId, name: row.name, resolution: decision.resolution, ...note, by } }]);
    return row;
  });
}
