/**
 * A finished turn's events → the span tree the GenAI conventions describe:
 *
 *   invoke_agent <agent>            the turn
 *     chat <model>                  each model call
 *     execute_tool <tool>           each tool call, after its step's model call
 *       invoke_agent <subagent>     a `task` call: the subagent's own chats and tools inside
 *
 * Pure (no OpenTelemetry here), so the tree can be checked without an
 * exporter. Times are epoch milliseconds. Recorded events are timestamped
 * when they are stored, up to a tick after they happened, so durations come
 * from the events' own `durationMs` and a step's tool calls are laid out one
 * after the other, after its model call, as the loop runs them.
 */
import type { EventDataByType, StepModel, TokenUsage, ToolAction } from "../protocol/events.ts";
import { assistantMessage, type ChatMessage, contentValue, toolMessage, userMessage } from "./content.ts";
import { finishReason, GEN_AI, OPERATION, providerName } from "./gen-ai.ts";
import type { Observation, TurnRecord } from "./turn-recorder.ts";

export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

export interface SpanPlan {
  name: string;
  kind: "internal" | "client";
  start: number;
  end: number;
  attributes: Attributes;
  /** The operation failed: `error.type` and the status message. */
  error?: { type: string; message: string };
  children: SpanPlan[];
}

export type TurnStatus = "completed" | "failed" | "cancelled" | "interrupted";

export interface TurnPlan {
  root: SpanPlan;
  status: TurnStatus;
  /** From the message's arrival to the turn's start (the session's previous turn, `maxRunningTurns`). */
  queueWaitMs?: number;
}

export interface PlanOptions {
  agentName: string;
  captureContent: boolean;
  contentLimit: number;
}

export const BDK_ATTRIBUTES = {
  turnId: "bdk.turn.id",
  turnStatus: "bdk.turn.status",
  step: "bdk.step",
} as const;

type ActionResult = EventDataByType["action.result"];

interface Step {
  /** Absent for a step resumed after a restart: its model call happened in the previous process. */
  start?: number;
  /** When the step's answer was recorded. */
  answeredAt?: number;
  reasoning?: string;
  text?: string;
  calls: ToolAction[];
  results: { data: ActionResult; time: number }[];
  completed?: EventDataByType["step.completed"];
  completedAt?: number;
}

interface SubagentCall {
  subagent: string;
  prompt: string;
  completed?: EventDataByType["subagent.completed"];
}

/** One agent loop's events, grouped: the turn, or a subagent inside it. */
interface Run {
  start: number;
  end: number;
  started?: EventDataByType["turn.started"];
  message?: { text: string; time: number };
  steps: Step[];
  subagentCalls: Map<string, SubagentCall>;
  completed?: EventDataByType["turn.completed"];
  failed?: EventDataByType["turn.failed"];
  startedAt?: number;
}

interface AgentContext {
  agentName: string;
  conversationId: string;
  options: PlanOptions;
  /** The user message, or the prompt a subagent was given. */
  input?: string;
  /** The accepted reply. */
  output?: string;
  failure?: { type: string; message: string };
  subagents: Map<string, Observation[]>;
}

export function planTurn(record: TurnRecord, options: PlanOptions): TurnPlan {
  const run = readRun(record.observations);
  const status: TurnStatus = run.completed ? "completed" : (run.failed?.status ?? "interrupted");
  const failure =
    run.failed && run.failed.status !== "cancelled" ? { type: run.failed.code, message: run.failed.message } : undefined;
  const root = planAgent(run, {
    agentName: options.agentName,
    conversationId: record.sessionId,
    options,
    input: run.message?.text,
    output: run.completed?.result,
    failure,
    subagents: record.subagents,
  });
  root.attributes[BDK_ATTRIBUTES.turnId] = record.turnId;
  root.attributes[BDK_ATTRIBUTES.turnStatus] = status;
  const arrived = run.message?.time;
  const queueWaitMs = arrived !== undefined && run.startedAt !== undefined ? Math.max(0, run.startedAt - arrived) : undefined;
  return { root, status, queueWaitMs };
}

function readRun(observations: Observation[]): Run {
  const run: Run = {
    start: observations[0]?.time ?? 0,
    end: observations[observations.length - 1]?.time ?? 0,
    steps: [],
    subagentCalls: new Map(),
  };
  let current: Step | undefined;
  const step = (): Step => {
    if (!current) {
      current = { calls: [], results: [] };
      run.steps.push(current);
    }
    return current;
  };
  for (const observation of observations) {
    switch (observation.type) {
      case "turn.started":
        run.started = observation.data;
        run.startedAt = observation.time;
        break;
      case "message.received":
        run.message = { text: observation.data.message, time: observation.time };
        break;
      case "step.started":
        current = { start: observation.time, calls: [], results: [] };
        run.steps.push(current);
        break;
      case "reasoning.completed": {
        const open = step();
        open.reasoning = open.reasoning ? `${open.reasoning}\n${observation.data.text}` : observation.data.text;
        break;
      }
      case "message.completed": {
        const open = step();
        open.text = observation.data.text;
        open.answeredAt ??= observation.time;
        break;
      }
      case "actions.requested": {
        const open = step();
        open.calls.push(...observation.data.actions);
        open.answeredAt ??= observation.time;
        break;
      }
      case "action.result":
        step().results.push({ data: observation.data, time: observation.time });
        break;
      case "step.completed": {
        const open = step();
        open.completed = observation.data;
        open.completedAt = observation.time;
        current = undefined;
        break;
      }
      case "subagent.called":
        run.subagentCalls.set(observation.data.toolCallId, { subagent: observation.data.subagent, prompt: observation.data.prompt });
        break;
      case "subagent.completed": {
        const call = run.subagentCalls.get(observation.data.toolCallId);
        if (call) call.completed = observation.data;
        break;
      }
      case "turn.completed":
        run.completed = observation.data;
        break;
      case "turn.failed":
        run.failed = observation.data;
        break;
    }
  }
  if (run.startedAt !== undefined) run.start = run.startedAt;
  return run;
}

function planAgent(run: Run, context: AgentContext): SpanPlan {
  const { options } = context;
  const model = run.steps.find((step) => step.completed?.model)?.completed?.model;
  const usage = run.completed?.usage ?? sumUsage(run.steps);
  const span: SpanPlan = {
    name: `${OPERATION.invokeAgent} ${context.agentName}`,
    kind: "internal",
    start: run.start,
    end: run.end,
    attributes: {
      [GEN_AI.operationName]: OPERATION.invokeAgent,
      [GEN_AI.agentName]: context.agentName,
      [GEN_AI.conversationId]: context.conversationId,
      ...(run.started?.botVersion ? { [GEN_AI.agentVersion]: run.started.botVersion } : {}),
      ...(model ? modelAttributes(model) : {}),
      ...usageAttributes(usage),
    },
    ...(context.failure ? { error: context.failure } : {}),
    children: planSteps(run, context),
  };
  if (options.captureContent) {
    if (context.input !== undefined) {
      span.attributes[GEN_AI.inputMessages] = JSON.stringify([userMessage(context.input, options.contentLimit)]);
    }
    if (context.output !== undefined) {
      span.attributes[GEN_AI.outputMessages] = JSON.stringify([
        assistantMessage({ text: context.output, finishReason: "stop" }, options.contentLimit),
      ]);
    }
  }
  return cover(span);
}

/** Each step's model call, then its tool calls one after another. */
function planSteps(run: Run, context: AgentContext): SpanPlan[] {
  const { captureContent, contentLimit } = context.options;
  const spans: SpanPlan[] = [];
  const conversation: ChatMessage[] = context.input !== undefined ? [userMessage(context.input, contentLimit)] : [];
  let cursor = Number.NEGATIVE_INFINITY;
  for (const step of run.steps) {
    if (step.start !== undefined) {
      // Stored times are cut to the millisecond: a step never starts before the previous one's tools end.
      const start = Math.max(step.start, cursor);
      const chat = planChat(step, start, run, context, captureContent ? JSON.stringify(conversation) : undefined);
      spans.push(chat);
      cursor = Math.max(cursor, chat.end);
    }
    for (const result of step.results) {
      const tool = planTool(result, step, run, context, cursor);
      spans.push(tool);
      cursor = tool.end;
    }
    if (captureContent) {
      conversation.push(assistantMessage(step, contentLimit));
      if (step.results.length > 0) conversation.push(toolMessage(step.results.map((result) => result.data), contentLimit));
    }
  }
  return spans;
}

function planChat(step: Step, start: number, run: Run, context: AgentContext, input: string | undefined): SpanPlan {
  const completed = step.completed;
  const model = completed?.model;
  const requestModel = model?.requestModel ?? run.started?.model ?? "unknown";
  const end =
    completed?.modelDurationMs !== undefined
      ? start + completed.modelDurationMs
      : (step.answeredAt ?? step.completedAt ?? run.end);
  const answered = step.answeredAt !== undefined || completed !== undefined;
  // A model call that never answered failed the turn (or was stopped with it).
  const failure = !answered ? context.failure : undefined;
  const { contentLimit } = context.options;
  const span: SpanPlan = {
    name: `${OPERATION.chat} ${requestModel}`,
    kind: "client",
    start,
    end: Math.max(start, end),
    attributes: {
      [GEN_AI.operationName]: OPERATION.chat,
      [GEN_AI.conversationId]: context.conversationId,
      [GEN_AI.requestModel]: requestModel,
      ...(model ? modelAttributes(model) : {}),
      ...(completed ? { [GEN_AI.finishReasons]: [finishReason(completed.finishReason)], ...usageAttributes(completed.usage) } : {}),
      ...(completed ? { [BDK_ATTRIBUTES.step]: completed.step } : {}),
    },
    ...(failure ? { error: failure } : {}),
    children: [],
  };
  if (input !== undefined) {
    span.attributes[GEN_AI.inputMessages] = input;
    if (answered) {
      const finish = completed ? finishReason(completed.finishReason) : undefined;
      span.attributes[GEN_AI.outputMessages] = JSON.stringify([assistantMessage({ ...step, finishReason: finish }, contentLimit)]);
    }
  }
  return span;
}

function planTool(
  result: Step["results"][number],
  step: Step,
  run: Run,
  context: AgentContext,
  cursor: number,
): SpanPlan {
  const { toolCallId, name, durationMs, isError, output } = result.data;
  const { captureContent, contentLimit } = context.options;
  const start = Math.max(result.time - durationMs, cursor);
  const span: SpanPlan = {
    name: `${OPERATION.executeTool} ${name}`,
    kind: "internal",
    start,
    end: start + durationMs,
    attributes: {
      [GEN_AI.operationName]: OPERATION.executeTool,
      [GEN_AI.conversationId]: context.conversationId,
      [GEN_AI.toolName]: name,
      [GEN_AI.toolCallId]: toolCallId,
      [GEN_AI.toolType]: "function",
    },
    ...(isError
      ? { error: { type: "tool_error", message: captureContent ? contentValue(output, contentLimit) : "The tool reported an error." } }
      : {}),
    children: [],
  };
  if (captureContent) {
    const call = step.calls.find((candidate) => candidate.toolCallId === toolCallId);
    if (call) span.attributes[GEN_AI.toolCallArguments] = contentValue(call.input, contentLimit);
    span.attributes[GEN_AI.toolCallResult] = contentValue(output, contentLimit);
  }
  const subagent = run.subagentCalls.get(toolCallId);
  if (subagent) span.children.push(fitInto(planSubagent(subagent, toolCallId, span, context), span));
  return cover(span);
}

function planSubagent(call: SubagentCall, toolCallId: string, tool: SpanPlan, parent: AgentContext): SpanPlan {
  const observations = parent.subagents.get(toolCallId) ?? [];
  const run = readRun(observations);
  if (observations.length === 0) {
    // Its own events were not seen (recorded by an older process): the span still shows the delegation.
    run.start = tool.start;
    run.end = tool.end;
  }
  const failed = call.completed?.isError === true;
  return planAgent(run, {
    agentName: call.subagent,
    conversationId: parent.conversationId,
    options: parent.options,
    input: call.prompt,
    output: failed ? undefined : call.completed?.result,
    failure: failed ? { type: "subagent_error", message: "The subagent failed or was stopped." } : undefined,
    subagents: new Map(),
  });
}

function modelAttributes(model: StepModel): Attributes {
  const provider = providerName(model.provider);
  return {
    [GEN_AI.providerName]: provider,
    [GEN_AI.system]: provider,
    [GEN_AI.requestModel]: model.requestModel,
    ...(model.responseModel ? { [GEN_AI.responseModel]: model.responseModel } : {}),
    ...(model.responseId ? { [GEN_AI.responseId]: model.responseId } : {}),
  };
}

function usageAttributes(usage: TokenUsage): Attributes {
  return {
    [GEN_AI.inputTokens]: usage.inputTokens,
    [GEN_AI.outputTokens]: usage.outputTokens,
    ...(usage.cachedInputTokens > 0 ? { [GEN_AI.cacheReadInputTokens]: usage.cachedInputTokens } : {}),
  };
}

function sumUsage(steps: Step[]): TokenUsage {
  const usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
  for (const step of steps) {
    if (!step.completed) continue;
    usage.inputTokens += step.completed.usage.inputTokens;
    usage.outputTokens += step.completed.usage.outputTokens;
    usage.cachedInputTokens += step.completed.usage.cachedInputTokens;
  }
  return usage;
}

/** A span lasts at least as long as its children. */
function cover(span: SpanPlan): SpanPlan {
  for (const child of span.children) {
    span.start = Math.min(span.start, child.start);
    span.end = Math.max(span.end, child.end);
  }
  return span;
}

/**
 * A subagent's events are stamped as they happen, its parent's when they are
 * stored: a child that seems to start before its `task` call is moved
 * (whole, keeping its own timings) to start with it.
 */
function fitInto(child: SpanPlan, parent: SpanPlan): SpanPlan {
  const delta = parent.start - child.start;
  if (delta > 0) shift(child, delta);
  return child;
}

function shift(span: SpanPlan, delta: number): void {
  span.start += delta;
  span.end += delta;
  for (const child of span.children) shift(child, delta);
}
