import type { ModelMessage } from "ai";
import type { ToolContext } from "../authoring/tools.ts";
import { type CallLedger, type ModelCandidate, type ParkedStep, runTurn, type ToolGate, TurnFailure } from "../harness/run-turn.ts";
import type { LoadedTool } from "../load/types.ts";
import { BdkError, messageOf } from "../protocol/errors.ts";
import type { EventDraft, TokenUsage } from "../protocol/events.ts";
import type { ModelStepRecord } from "../protocol/model-calls.ts";

export interface TurnJob {
  turnId: string;
  /** Absent when resuming a step parked on an approval. */
  message?: string;
  resume?: ParkedStep;
  continueAt?: number;
  gate?: ToolGate;
  ledger?: CallLedger;
  commit?: (text: string) => Promise<string | undefined>;
  system: string;
  history: ModelMessage[];
  tools: LoadedTool[];
  botVersion: string;
  resolveModels(): ModelCandidate[];
  isModelUnavailable(error: unknown): boolean;
  toolContext(toolCallId: string, signal: AbortSignal): ToolContext;
  emit(draft: EventDraft): void;
  recordStep?(record: ModelStepRecord): void;
  signal: AbortSignal;
}

export type TurnEnd =
  | { status: "completed"; text: string; usage: TokenUsage; messages: ModelMessage[]; model: string }
  | { status: "failed" | "cancelled" | "interrupted"; code: string; message: string };

/** Why a turn's abort signal fired; becomes the `turn.failed` payload. */
export interface AbortReason {
  status: "cancelled" | "interrupted";
  code: string;
  message: string;
}

export const STOPPED: AbortReason = { status: "cancelled", code: "cancelled", message: "The turn was stopped." };
export const PREEMPTED: AbortReason = {
  status: "cancelled",
  code: "preempted",
  message: "A new message interrupted this turn.",
};
/** A graceful stop of the server: what a restart after a crash would record, recorded now. */
export const SHUTDOWN: AbortReason = {
  status: "interrupted",
  code: "interrupted",
  message: "The server stopped while this turn was running.",
};

/** The session's lease was taken over (or lapsed): another node ends this turn, and nothing more of it is stored. */
export const LEASE_LOST: AbortReason = {
  status: "interrupted",
  code: "lease_lost",
  message: "Another node took this session over; this turn stopped here.",
};

/**
 * Runs one turn and records how it ended: `turn.completed` or `turn.failed`.
 * Never throws; the session decides what follows (waiting, completed, failed).
 */
export async function executeTurn(job: TurnJob): Promise<TurnEnd> {
  const started = performance.now();
  let end: TurnEnd;
  try {
    const models = job.resolveModels();
    const result = await runTurn({
      system: job.system,
      history: job.history,
      message: job.message,
      resume: job.resume,
      continueAt: job.continueAt,
      gate: job.gate,
      ledger: job.ledger,
      commit: job.commit,
      tools: job.tools,
      botVersion: job.botVersion,
      models,
      isModelUnavailable: job.isModelUnavailable,
      toolContext: (toolCallId) => job.toolContext(toolCallId, job.signal),
      abortSignal: job.signal,
      emit: job.emit,
      recordStep: job.recordStep,
    });
    end = { status: "completed", ...result };
  } catch (error) {
    end = failureOf(error, job.signal);
  }

  if (end.status === "completed") {
    job.emit({
      type: "turn.completed",
      data: { result: end.text, usage: end.usage, durationMs: Math.round(performance.now() - started) },
    });
  } else {
    job.emit({ type: "turn.failed", data: { status: end.status, code: end.code, message: end.message } });
  }
  return end;
}

function failureOf(error: unknown, signal: AbortSignal): TurnEnd {
  if (signal.aborted) {
    const reason = signal.reason as Partial<AbortReason> | undefined;
    return {
      status: reason?.status ?? STOPPED.status,
      code: reason?.code ?? STOPPED.code,
      message: reason?.message ?? STOPPED.message,
    };
  }
  if (BdkError.isInstance(error) || error instanceof TurnFailure) {
    return { status: "failed", code: error.code, message: error.message };
  }
  return { status: "failed", code: "model_error", message: messageOf(error) };
}
