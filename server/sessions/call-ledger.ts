/**
 * The side-effect ledger of one turn (issue 16, item 4): each tool call is
 * recorded before it runs and when it returns, so a crash can never make a
 * call that finished run again, and recovery can tell which call was cut
 * off mid-way (in doubt) instead of retrying it.
 */
import type { CallLedger } from "../harness/run-turn.ts";
import type { ToolOutcome } from "../harness/execute-tool.ts";
import { inDoubtOutput } from "../harness/history.ts";
import type { LoadedTool } from "../load/types.ts";
import type { AsyncStore } from "../store/async-store.ts";
import type { ToolCallRow } from "../store/types.ts";
import type { SessionEventLog } from "./event-log.ts";

export const IN_DOUBT_MESSAGE =
  "The server stopped while this call was running: it may or may not have taken effect. It was not run again; check before repeating it.";

export function turnLedger(store: AsyncStore, log: SessionEventLog, sessionId: string, turnId: string): CallLedger {
  return {
    async begin(call, tool) {
      const key = { sessionId, turnId, toolCallId: call.toolCallId };
      // The turn's buffered events (its actions.requested) are stored with the row: after a crash the call is in the log.
      const started = await log.transaction(sessionId, (tx) => tx.toolCalls.start({ ...key, name: call.name, ...checked(tool, call.input) }));
      return started ? undefined : recordedOutcome((await store.toolCalls.get(key))!);
    },
    end(call, outcome) {
      // Stored with the call's action.result (emitted next), in one transaction: after a crash either both are there
      // or neither, and the call is reported in doubt, as nobody saw it end.
      log.writeSoon(sessionId, (tx) => tx.toolCalls.finish({ sessionId, turnId, toolCallId: call.toolCallId }, outcome));
    },
  };
}

/** What a call the ledger already has returned; a call in doubt is reported, never re-run. */
function recordedOutcome(row: ToolCallRow): ToolOutcome {
  if (row.status === "finished" && row.outcome) return row.outcome;
  return { output: inDoubtOutput(row.name, IN_DOUBT_MESSAGE), isError: true, durationMs: 0 };
}

/**
 * The call's effect and its input as validated (defaults filled in; the raw
 * input when it does not validate, or when a schema's transforms made
 * something JSON cannot store, a BigInt or a cycle). An effect that cannot
 * be decided (invalid input, a throwing `effect` function) counts as a write.
 */
function checked(tool: LoadedTool, input: unknown): { effect: "read" | "write"; input: unknown } {
  try {
    const parsed = tool.parseInput(input ?? {});
    return parsed.ok ? { effect: tool.effect(parsed.value), input: storable(parsed.value) ? parsed.value : input } : { effect: "write", input };
  } catch {
    return { effect: "write", input };
  }
}

function storable(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}
