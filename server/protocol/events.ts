/**
 * The session event vocabulary (spec/runtime.md "Events").
 *
 * Every event is one NDJSON line with this envelope. `index` starts at 0 and
 * grows by exactly one within a session, across restarts too.
 */

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

export interface Principal {
  type: "user" | "service" | "app";
  id: string;
}

export function samePrincipal(a: Principal, b: Principal): boolean {
  return a.type === b.type && a.id === b.id;
}

export type SessionMode = "chat" | "task";

/** The model that answered a step, as telemetry reports it (`gen_ai.request.model`, `gen_ai.response.*`). */
export interface StepModel {
  /** As configured: `openai/gpt-5`, `grok-4.5`, `scripted`. */
  id: string;
  /** The AI SDK provider: `openai.responses`, `anthropic.messages`, `bdk` for `scripted`. */
  provider: string;
  /** The provider's model id the request named: `gpt-5`. */
  requestModel: string;
  /** What the provider said it answered with, when it said. */
  responseModel?: string;
  responseId?: string;
}

export interface ToolAction {
  toolCallId: string;
  name: string;
  input: unknown;
}

/** Payload of every event type, keyed by the type. */
export interface EventDataByType {
  /**
   * On a fork: `parentId`, the session it was cut from; `forkedAt`, the
   * source's index of the message the fork answers again; `cutAfter`, for a
   * fork cut inside a turn, the last source index it inherited.
   */
  "session.started": { mode: SessionMode; channel: string; title?: string; principal: Principal; parentId?: string; forkedAt?: number; cutAfter?: number };
  "message.received": { message: string; workspaceFiles?: string[] };
  "turn.queued": { position: number };
  "turn.started": { model: string; botVersion?: string };
  "step.started": { step: number };
  "reasoning.appended": { delta: string };
  "reasoning.completed": { text: string };
  "message.appended": { delta: string };
  "message.completed": { text: string; finishReason: string };
  "actions.requested": { actions: ToolAction[] };
  "action.approval_requested": { approvalId: string; toolCallId: string; name: string; input: unknown };
  "action.approval_resolved": {
    approvalId: string;
    toolCallId: string;
    approved: boolean;
    by: string;
    reason?: string;
  };
  /**
   * `serve --dev`: the call waits for a person to authorize its MCP connection
   * (`POST <authorizePath>`, relative to the agent's base path), then runs again.
   */
  "action.authorization_required": { toolCallId: string; connection: string; authorizePath: string };
  "action.result": {
    toolCallId: string;
    name: string;
    output: unknown;
    isError: boolean;
    durationMs: number;
    /** The tool ignored its stop or outlived its time limit: it was left running and its result will be discarded. */
    stillRunning?: true;
    /** In a fork: the result is the fork's tool stub (`overrides.toolResults`); the tool did not run. */
    stubbed?: true;
  };
  /**
   * A tool call that started and was never seen to end (the server stopped
   * while it ran): it may or may not have taken effect. Recorded on
   * recovery, before the turn's `turn.failed`; the call is never run again.
   */
  "action.in_doubt": { toolCallId: string; name: string; input: unknown; effect: "read" | "write"; startedAt: string; message: string };
  /** A person checked a call in doubt: it took effect (`done`) or it did not (`not_done`); it leaves the approvals inbox. */
  "action.in_doubt_resolved": { toolCallId: string; name: string; resolution: InDoubtResolution; note?: string; by: string };
  "subagent.called": { subagent: string; toolCallId: string; prompt: string };
  "subagent.completed": { subagent: string; toolCallId: string; result?: string; isError: boolean };
  "artifact.tagged": { id: string; kind: string; key: string; title: string };
  /**
   * `model` and `modelDurationMs` (the model call alone, without the step's
   * tools) are absent on a step resumed after a restart and on steps stored
   * by earlier versions.
   */
  "step.completed": {
    step: number;
    durationMs: number;
    finishReason: string;
    usage: TokenUsage;
    model?: StepModel;
    modelDurationMs?: number;
  };
  "turn.completed": { result: string; usage: TokenUsage; durationMs: number };
  "turn.failed": { status: "failed" | "cancelled" | "interrupted"; code: string; message: string };
  "session.waiting": Record<string, never>;
  "session.completed": { result: string };
  "session.failed": { code: string; message: string };
}

export type EventType = keyof EventDataByType;

export type InDoubtResolution = "done" | "not_done";

export const EVENT_TYPES = [
  "session.started",
  "message.received",
  "turn.queued",
  "turn.started",
  "step.started",
  "reasoning.appended",
  "reasoning.completed",
  "message.appended",
  "message.completed",
  "actions.requested",
  "action.approval_requested",
  "action.approval_resolved",
  "action.authorization_required",
  "action.result",
  "action.in_doubt",
  "action.in_doubt_resolved",
  "subagent.called",
  "subagent.completed",
  "artifact.tagged",
  "step.completed",
  "turn.completed",
  "turn.failed",
  "session.waiting",
  "session.completed",
  "session.failed",
] as const satisfies readonly EventType[];

export interface BdkEvent<T extends EventType = EventType> {
  type: T;
  index: number;
  sessionId: string;
  turnId?: string;
  at: string;
  data: EventDataByType[T];
}

/** Any event, discriminated on `type` so `event.data` narrows. */
export type AnyBdkEvent = { [T in EventType]: BdkEvent<T> }[EventType];

/** An event before the session log assigns its index and timestamp. */
export type EventDraft = { [T in EventType]: { type: T; turnId?: string; data: EventDataByType[T] } }[EventType];

export const ZERO_USAGE: TokenUsage = Object.freeze({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });

export function addUsage(a: TokenUsage, b: Partial<TokenUsage>): TokenUsage {
  return {
    inputTokens: a.inputTokens + (b.inputTokens ?? 0),
    outputTokens: a.outputTokens + (b.outputTokens ?? 0),
    cachedInputTokens: a.cachedInputTokens + (b.cachedInputTokens ?? 0),
  };
}
