import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ProviderOptions } from "@ai-sdk/provider-utils";
import type { ModelMessage, ToolModelMessage } from "ai";
import type { ToolContext } from "../authoring/tools.ts";
import type { LoadedTool } from "../load/types.ts";
import { addUsage, type EventDraft, type TokenUsage, ZERO_USAGE } from "../protocol/events.ts";
import { executeTool, toModelOutput } from "./execute-tool.ts";
import { runModelStep, type StepOutcome } from "./model-step.ts";

/** A model ready to call; the first that answers wins, the rest are fallbacks. */
export interface ModelCandidate {
  id: string;
  model: LanguageModelV3;
  providerOptions?: ProviderOptions;
}

/** Distributes `EventDraft` without the turn id; the session log stamps it. */
export type TurnEmitter = (draft: EventDraft) => void;

export interface TurnRequest {
  system: string;
  history: ModelMessage[];
  message: string;
  tools: LoadedTool[];
  models: ModelCandidate[];
  /** Content hash of the bot that runs this turn, recorded on `turn.started`. */
  botVersion?: string;
  /** Decides whether an error from a model means "try the next candidate". */
  isModelUnavailable(error: unknown): boolean;
  toolContext(toolCallId: string): ToolContext;
  abortSignal: AbortSignal;
  emit: TurnEmitter;
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

/**
 * The agent loop: call the model, run the tools it asked for, feed the
 * results back, until it answers without tool calls. Throws when the turn
 * cannot finish (aborted, or no model answered); the caller records why.
 */
export async function runTurn(request: TurnRequest): Promise<TurnResult> {
  const messages: ModelMessage[] = [{ role: "user", content: request.message }];
  const byName = new Map(request.tools.map((tool) => [tool.name, tool]));
  let candidateIndex = 0;
  let usage = ZERO_USAGE;
  let finalText = "";

  request.emit({
    type: "turn.started",
    data: { model: request.models[0]?.id ?? "none", botVersion: request.botVersion },
  });

  const maxSteps = request.maxSteps ?? DEFAULT_MAX_STEPS;
  for (let step = 0; step < maxSteps; step++) {
    request.emit({ type: "step.started", data: { step } });
    const started = performance.now();

    let outcome: StepOutcome;
    for (;;) {
      const candidate = request.models[candidateIndex];
      if (!candidate) throw new Error("No model is available for this turn.");
      try {
        outcome = await runModelStep({
          model: candidate.model,
          system: request.system,
          messages: [...request.history, ...messages],
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

    usage = addUsage(usage, outcome.usage);
    messages.push(...outcome.responseMessages);
    if (outcome.text) {
      request.emit({ type: "message.completed", data: { text: outcome.text, finishReason: outcome.finishReason } });
      finalText = outcome.text;
    }

    if (outcome.toolCalls.length > 0) {
      request.emit({ type: "actions.requested", data: { actions: outcome.toolCalls } });
      const results: ToolModelMessage["content"] = [];
      for (const call of outcome.toolCalls) {
        const tool = byName.get(call.name);
        const result = tool
          ? await executeTool(tool, call.input, request.toolContext(call.toolCallId))
          : { output: `Unknown tool ${call.name}.`, isError: true, durationMs: 0 };
        request.emit({
          type: "action.result",
          data: { toolCallId: call.toolCallId, name: call.name, ...result },
        });
        results.push({
          type: "tool-result",
          toolCallId: call.toolCallId,
          toolName: call.name,
          output: toModelOutput(result),
        });
        request.abortSignal.throwIfAborted();
      }
      messages.push({ role: "tool", content: results });
    }

    request.emit({
      type: "step.completed",
      data: {
        step,
        durationMs: Math.round(performance.now() - started),
        finishReason: outcome.finishReason,
        usage: outcome.usage,
      },
    });
    if (outcome.toolCalls.length === 0) break;
  }

  return { text: finalText, usage, messages, model: request.models[candidateIndex]?.id ?? "none" };
}
