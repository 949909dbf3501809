import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ProviderOptions } from "@ai-sdk/provider-utils";
import type { ModelMessage, ToolModelMessage } from "ai";
import type { ToolContext } from "../authoring/tools.ts";
import type { LoadedTool } from "../load/types.ts";
import { addUsage, type EventDraft, type StepModel, type TokenUsage, type ToolAction, ZERO_USAGE } from "../protocol/events.ts";
import { executeTool, toModelOutput, type ToolOutcome } from "./execute-tool.ts";
import { assistantMessage } from "./history.ts";
import type { ModelStepRecord, OfferedTool } from "../protocol/model-calls.ts";
import { runModelStep, type StepOutcome, toModelTools } from "./model-step.ts";

/** A model ready to call; the first that answers wins, the rest are fallbacks. */
export interface ModelCandidate {
  id: string;
  model: LanguageModelV3;
  providerOptions?: ProviderOptions;
}

/** Distributes `EventDraft` without the turn id; the session log stamps it. */
export type TurnEmitter = (draft: EventDraft) => void;

export interface ApprovalDecision {
  approved: boolean;
  by: string;
  reason?: string;
}

/**
 * Decides whether a model-initiated call may run. Resolves `undefined` when
 * no approval is needed; otherwise parks until a person decides.
 */
export type ToolGate = (call: ToolAction, tool: LoadedTool, ctx: ToolContext) => Promise<ApprovalDecision | undefined>;

/**
 * The side-effect ledger a turn records its tool calls in: before one runs
 * and when it returns. A call the ledger already knows is not run again.
 */
export interface CallLedger {
  /**
   * Records the call as started (durably, before it runs). Returns the
   * outcome to use instead of running it when the ledger already has the
   * call: what it returned, or an error saying it is in doubt.
   */
  begin(call: ToolAction, tool: LoadedTool): Promise<ToolOutcome | undefined>;
  /** Records what the call returned (with the call's next events: nothing to wait for). */
  end(call: ToolAction, outcome: ToolOutcome): void;
}

/** A step whose tool calls were interrupted (a parked approval across a restart). */
export interface ParkedStep {
  step: number;
  text: string;
  calls: ToolAction[];
  /** Results already recorded for some of the calls. */
  results: Map<string, Pick<ToolOutcome, "output" | "isError">>;
}

export interface TurnRequest {
  system: string;
  history: ModelMessage[];
  /** The user message; absent when resuming a parked step. */
  message?: string;
  resume?: ParkedStep;
  /**
   * The turn began before this run picks it up (a fork cut inside a turn,
   * after its last complete step): `turn.started` is not emitted again and
   * the model is called next at this step, on `history` alone.
   */
  continueAt?: number;
  tools: LoadedTool[];
  models: ModelCandidate[];
  /** Content hash of the bot that runs this turn, recorded on `turn.started`. */
  botVersion?: string;
  /** Decides whether an error from a model means "try the next candidate". */
  isModelUnavailable(error: unknown): boolean;
  toolContext(toolCallId: string): ToolContext;
  gate?: ToolGate;
  /** Where the turn's tool calls are recorded (a subagent's private calls are not). */
  ledger?: CallLedger;
  /**
   * `bot/result.ts`: runs on the final text. Resolves a rejection message to
   * ask the model for a revision; throws to fail the turn.
   */
  commit?: (text: string) => Promise<string | undefined>;
  abortSignal: AbortSignal;
  emit: TurnEmitter;
  /** Receives what each model step was sent and answered, once it answered (the Trace tab's content). */
  recordStep?: (record: ModelStepRecord) => void;
  maxSteps?: number;
}

export interface TurnResult {
  text: string;
  usage: TokenUsage;
  /** The user message and everything the turn added, to extend the history with. */
  messages: ModelMessage[];
  model: string;
}

const DEFAULT_MAX_STEPS = 25;
/** Revisions `ctx.reject` may ask for before the turn fails. */
export const MAX_RESULT_REVISIONS = 2;

/** A turn that cannot produce an accepted result; the code lands on `turn.failed`. */
export class TurnFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "TurnFailure";
  }
}

/**
 * The agent loop: call the model, run the tools it asked for, feed the
 * results back, until it answers without tool calls. Throws when the turn
 * cannot finish (aborted, or no model answered); the caller records why.
 */
export async function runTurn(request: TurnRequest): Promise<TurnResult> {
  const messages: ModelMessage[] = request.message === undefined ? [] : [{ role: "user", content: request.message }];
  const byName = new Map(request.tools.map((tool) => [tool.name, tool]));
  let candidateIndex = 0;
  let usage = ZERO_USAGE;
  let finalText = "";
  let firstStep = 0;

  if (request.resume) {
    const parked = request.resume;
    messages.push(assistantMessage(parked.text, parked.calls));
    messages.push(await runToolCalls(parked.calls, parked.results, byName, request, [...request.history, ...messages]));
    request.emit({
      type: "step.completed",
      data: { step: parked.step, durationMs: 0, finishReason: "tool-calls", usage: ZERO_USAGE },
    });
    firstStep = parked.step + 1;
  } else if (request.continueAt !== undefined) {
    firstStep = request.continueAt;
  } else {
    request.emit({
      type: "turn.started",
      data: { model: request.models[0]?.id ?? "none", botVersion: request.botVersion },
    });
  }

  const maxSteps = request.maxSteps ?? DEFAULT_MAX_STEPS;
  // One list per turn: the recorder stores it again only when it changes.
  const offered: OfferedTool[] | undefined = request.recordStep && toModelTools(request.tools);
  let revisions = 0;
  for (let step = firstStep; step < maxSteps; step++) {
    request.emit({ type: "step.started", data: { step } });
    const started = performance.now();
    const startedAt = new Date().toISOString();

    let outcome: StepOutcome;
    let candidate: ModelCandidate | undefined;
    const sent = [...request.history, ...messages];
    for (;;) {
      candidate = request.models[candidateIndex];
      if (!candidate) throw new Error("No model is available for this turn.");
      try {
        outcome = await runModelStep({
          model: candidate.model,
          system: request.system,
          messages: sent,
          tools: request.tools,
          providerOptions: candidate.providerOptions,
          abortSignal: request.abortSignal,
          onEvent: request.emit,
        });
        break;
      } catch (error) {
        const next = request.models[candidateIndex + 1];
        if (request.abortSignal.aborted || !next || !request.isModelUnavailable(error)) throw error;
        candidateIndex++;
      }
    }

    const modelDurationMs = Math.round((performance.now() - started) * 100) / 100;
    if (offered) request.recordStep!(stepRecord(step, startedAt, modelDurationMs, request.system, sent, offered, candidate, outcome));
    usage = addUsage(usage, outcome.usage);
    messages.push(...outcome.responseMessages);
    if (outcome.text) {
      request.emit({ type: "message.completed", data: { text: outcome.text, finishReason: outcome.finishReason } });
      finalText = outcome.text;
    }
    if (outcome.toolCalls.length > 0) {
      request.emit({ type: "actions.requested", data: { actions: outcome.toolCalls } });
      messages.push(await runToolCalls(outcome.toolCalls, new Map(), byName, request, [...request.history, ...messages]));
    }
    request.emit({
      type: "step.completed",
      data: {
        step,
        durationMs: Math.round(performance.now() - started),
        finishReason: outcome.finishReason,
        usage: outcome.usage,
        model: stepModel(candidate, outcome),
        modelDurationMs,
      },
    });
    if (outcome.toolCalls.length > 0) continue;
    if (!request.commit) break;

    if (!outcome.text) throw new TurnFailure("no_result", "The turn ended without assistant text for result.ts to commit.");
    const rejection = await request.commit(outcome.text);
    if (rejection === undefined) break;
    if (revisions++ >= MAX_RESULT_REVISIONS) {
      throw new TurnFailure("result_rejected", `result.ts rejected the answer ${revisions} times: ${rejection}`);
    }
    messages.push({ role: "user", content: `Your answer was not accepted: ${rejection}\nRevise it.` });
  }

  return { text: finalText, usage, messages, model: request.models[candidateIndex]?.id ?? "none" };
}

function stepModel(candidate: ModelCandidate, outcome: StepOutcome): StepModel {
  const { modelId, id } = outcome.response;
  return {
    id: candidate.id,
    provider: candidate.model.provider,
    requestModel: candidate.model.modelId,
    ...(modelId ? { responseModel: modelId } : {}),
    ...(id ? { responseId: id } : {}),
  };
}

function stepRecord(
  step: number,
  startedAt: string,
  durationMs: number,
  system: string,
  messages: ModelMessage[],
  tools: OfferedTool[],
  candidate: ModelCandidate,
  outcome: StepOutcome,
): ModelStepRecord {
  const { modelId, id } = outcome.response;
  return {
    step,
    startedAt,
    durationMs,
    request: {
      system,
      messages,
      tools,
      params: { model: candidate.id, provider: candidate.model.provider, modelId: candidate.model.modelId, providerOptions: candidate.providerOptions },
    },
    response: {
      text: outcome.text,
      reasoning: outcome.reasoning,
      toolCalls: outcome.toolCalls,
      finishReason: outcome.finishReason,
      usage: outcome.usage,
      ...(modelId ? { responseModel: modelId } : {}),
      ...(id ? { responseId: id } : {}),
    },
  };
}

/** Runs a step's calls in order (through the approval gate), recording each `action.result`. */
async function runToolCalls(
  calls: ToolAction[],
  recorded: ParkedStep["results"],
  byName: Map<string, LoadedTool>,
  request: TurnRequest,
  /** The conversation so far, this step's calls included: where a fork's call stub finds the call's number. */
  conversation: readonly ModelMessage[],
): Promise<ToolModelMessage> {
  const content: ToolModelMessage["content"] = [];
  for (const call of calls) {
    let result = recorded.get(call.toolCallId);
    if (!result) {
      // Before each call, the first included: a step resumed after a Stop arrived (a fork's, a parked one's) runs none of its calls.
      request.abortSignal.throwIfAborted();
      const tool = byName.get(call.name);
      const outcome = await runOneCall(call, tool?.stubFor?.(callNumber(conversation, call)) ?? tool, request);
      request.emit({ type: "action.result", data: { toolCallId: call.toolCallId, name: call.name, ...outcome } });
      result = outcome;
    }
    content.push({ type: "tool-result", toolCallId: call.toolCallId, toolName: call.name, output: toModelOutput(result) });
  }
  // A Stop during the last call ends the turn before its step is closed, as one during any other call does.
  request.abortSignal.throwIfAborted();
  return { role: "tool", content };
}

/** The call's number among the calls of its tool in the conversation (1-based). */
function callNumber(conversation: readonly ModelMessage[], call: ToolAction): number {
  let count = 0;
  for (const message of conversation) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type !== "tool-call" || part.toolName !== call.name) continue;
      count++;
      if (part.toolCallId === call.toolCallId) return count;
    }
  }
  return count + 1;
}

async function runOneCall(call: ToolAction, tool: LoadedTool | undefined, request: TurnRequest): Promise<ToolOutcome> {
  if (!tool) return { output: `Unknown tool ${call.name}.`, isError: true, durationMs: 0 };
  const ctx = request.toolContext(call.toolCallId);
  const decision = await request.gate?.(call, tool, ctx);
  if (decision && !decision.approved) {
    const why = decision.reason ? `: ${decision.reason}` : "";
    return { output: `The call to ${call.name} was denied by ${decision.by}${why}.`, isError: true, durationMs: 0 };
  }
  const known = await request.ledger?.begin(call, tool);
  if (known) return known;
  const executed = await executeTool(tool, call.input, ctx);
  const outcome: ToolOutcome = tool.stubbed ? { ...executed, stubbed: true } : executed;
  request.ledger?.end(call, outcome);
  return outcome;
}
