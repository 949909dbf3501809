import type { Attributes, Counter, Histogram, Meter } from "@opentelemetry/api";
import { ERROR_TYPE, GEN_AI, GEN_AI_METRICS, OPERATION } from "./gen-ai.ts";
import type { SpanPlan, TurnPlan } from "./span-plan.ts";

/** The conventions' advised buckets for `gen_ai.client.token.usage` and `gen_ai.client.operation.duration`. */
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
const SECONDS_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

/**
 * The built-in instruments, fed from each turn's span tree so metrics and
 * traces always agree: turns and their duration, queue wait, model calls'
 * tokens and duration (the GenAI conventions' client metrics), tool calls
 * and tool errors.
 */
export class TurnMetrics {
  private readonly turns: Counter;
  private readonly turnDuration: Histogram;
  private readonly queueWait: Histogram;
  private readonly tokenUsage: Histogram;
  private readonly operationDuration: Histogram;
  private readonly toolDuration: Histogram;
  private readonly toolErrors: Counter;

  constructor(meter: Meter) {
    const histogram = (name: string, description: string, unit: string, buckets = SECONDS_BUCKETS) =>
      meter.createHistogram(name, { description, unit, advice: { explicitBucketBoundaries: buckets } });
    this.turns = meter.createCounter("bdk.turns", { description: "Turns that ended, by status.", unit: "{turn}" });
    this.turnDuration = histogram("bdk.turn.duration", "How long a turn ran, from its start to its end.", "s");
    this.queueWait = histogram(
      "bdk.turn.queue_wait",
      "How long a message waited for its turn to start (the session's previous turn, maxRunningTurns).",
      "s",
    );
    this.tokenUsage = histogram(GEN_AI_METRICS.tokenUsage, "Tokens used per model call.", "{token}", TOKEN_BUCKETS);
    this.operationDuration = histogram(GEN_AI_METRICS.operationDuration, "Duration of a model call.", "s");
    this.toolDuration = histogram("bdk.tool.duration", "Duration of a tool call.", "s");
    this.toolErrors = meter.createCounter("bdk.tool.errors", { description: "Tool calls that ended in an error.", unit: "{call}" });
  }

  record(plan: TurnPlan): void {
    const { root } = plan;
    const agent = { [GEN_AI.agentName]: root.attributes[GEN_AI.agentName] };
    this.turns.add(1, { ...agent, "bdk.turn.status": plan.status });
    this.turnDuration.record(seconds(root), { ...agent, "bdk.turn.status": plan.status });
    if (plan.queueWaitMs !== undefined) this.queueWait.record(plan.queueWaitMs / 1000, agent);
    for (const child of root.children) this.recordOperation(child);
  }

  private recordOperation(span: SpanPlan): void {
    const operation = span.attributes[GEN_AI.operationName];
    if (operation === OPERATION.chat) this.recordChat(span);
    if (operation === OPERATION.executeTool) {
      const tool = { [GEN_AI.toolName]: span.attributes[GEN_AI.toolName], ...errorOf(span) };
      this.toolDuration.record(seconds(span), tool);
      if (span.error) this.toolErrors.add(1, tool);
    }
    for (const child of span.children) this.recordOperation(child);
  }

  private recordChat(span: SpanPlan): void {
    const model: Attributes = { [GEN_AI.operationName]: OPERATION.chat };
    for (const key of [GEN_AI.providerName, GEN_AI.requestModel, GEN_AI.responseModel]) {
      if (span.attributes[key] !== undefined) model[key] = span.attributes[key];
    }
    this.operationDuration.record(seconds(span), { ...model, ...errorOf(span) });
    const input = span.attributes[GEN_AI.inputTokens];
    const output = span.attributes[GEN_AI.outputTokens];
    if (typeof input === "number") this.tokenUsage.record(input, { ...model, [GEN_AI.tokenType]: "input" });
    if (typeof output === "number") this.tokenUsage.record(output, { ...model, [GEN_AI.tokenType]: "output" });
  }
}

function seconds(span: SpanPlan): number {
  return Math.max(0, span.end - span.start) / 1000;
}

function errorOf(span: SpanPlan): Attributes {
  return span.error ? { [ERROR_TYPE]: span.error.type } : {};
}
