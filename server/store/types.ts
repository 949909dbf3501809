/**
 * Plain rows returned by the store repositories. No drizzle types: callers
 * depend on these shapes only, so the storage backend can change under them.
 */
import type { Principal, SessionMode, TokenUsage } from "../protocol/events.ts";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/**
 * - `idle`: created, no turn has started yet
 * - `running`: a turn is running or queued
 * - `waiting`: a chat session between turns; accepts follow-ups
 * - `completed` / `failed`: a task session that ended; follow-ups are refused
 * - `deleted`: soft-deleted; hidden from `get`, `list`, `findByToken`
 */
export type SessionStatus = "idle" | "running" | "waiting" | "completed" | "failed" | "deleted";

export interface SessionRow {
  id: string;
  agent: string | null;
  title: string | null;
  mode: SessionMode;
  status: SessionStatus;
  channel: string;
  principal: Principal;
  continuationToken: string | null;
  /** Whatever the channel needs to answer in the conversation (thread ids, PR refs). */
  channelState: unknown;
  purpose: string | null;
  dryRun: boolean;
  botVersion: string | null;
  createdAt: string;
  updatedAt: string;
  /** Index of the last event, -1 before the first. */
  lastIndex: number;
  usage: TokenUsage;
  /** The channel's choice of working directory for this session; null: the agent's default. */
  workspaceDir: string | null;
  /** Set on a fork: the session it was cut from and where. */
  fork: SessionFork | null;
}

/** What a fork's turns run differently from the agent as loaded (all optional). */
export interface RunOverrides {
  /** A model id (`scripted`, `openai/gpt-5`): replaces the agent's model and its fallbacks. */
  model?: string;
  /** Model params (`[{ id: "effort", value: "high" }]`), on the override's model or the agent's. */
  params?: { id: string; value: string }[];
  /** The system prompt, verbatim, instead of the one composed from the agent's sources. */
  instructions?: string;
  /** Tool name → the result a call of it gets instead of running the tool. */
  toolResults?: Record<string, { output: unknown; isError?: boolean }>;
  /**
   * Stubs of single calls: the `call`-th call of tool `name` in the session
   * (1-based, counting the calls that got a result, inherited ones included)
   * gets this result; its other calls run (or take `toolResults`).
   */
  toolCallResults?: ToolCallStub[];
}

export interface ToolCallStub {
  name: string;
  call: number;
  output: unknown;
  isError?: boolean;
}

export interface SessionFork {
  parentId: string;
  /** The parent's event index the fork was cut at: the fork's events before it are the parent's. */
  forkedAt: number;
  overrides: RunOverrides;
}

export type TurnStatus = "queued" | "running" | "completed" | "failed" | "cancelled" | "interrupted";

export interface TurnRow {
  id: string;
  sessionId: string;
  status: TurnStatus;
  message: string;
  /** Files sent with the message, until the turn has written them into the workspace. */
  workspaceFiles: Record<string, string> | null;
  botVersion: string | null;
  model: string | null;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  usage: TokenUsage | null;
  /** A message of this queued turn asked to preempt the running one, and the node running it has not yet done so. */
  preempts: boolean;
}

export type ApprovalStatus = "pending" | "approved" | "denied";

export interface ApprovalRow {
  id: string;
  sessionId: string;
  turnId: string;
  toolCallId: string;
  name: string;
  input: unknown;
  status: ApprovalStatus;
  resolvedBy: string | null;
  reason: string | null;
  createdAt: string;
  resolvedAt: string | null;
}

export interface KvEntry {
  key: string;
  value: JsonValue;
  updatedAt: string;
}

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface LogRow {
  id: number;
  at: string;
  level: LogLevel;
  msg: string;
  data: Record<string, unknown> | null;
}

/** An artifact record without its (possibly large) contents. */
export interface ArtifactRow {
  id: string;
  kind: string;
  key: string;
  title: string;
  data: unknown;
  contentType: string | null;
  /** Byte length of the stored contents, null when there are none. */
  size: number | null;
  sessionId: string | null;
  /** The principal of the session that tagged it; null when tagged outside a session. */
  owner: Principal | null;
  createdAt: string;
  updatedAt: string;
}

export interface ArtifactContents {
  contents: Buffer;
  contentType: string | null;
}

/** `armed`: waiting for `nextFireAt`; `done`: a one-shot that fired or a handler that stopped it. */
export type ReminderStatus = "armed" | "done" | "cancelled";

export interface ReminderRow {
  id: string;
  /** The creation request (purpose, channel, token, delay|at|every|cron, prompt|handler+args, until). */
  spec: JsonValue;
  nextFireAt: string | null;
  status: ReminderStatus;
  lastFiredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type EvalRunStatus = "running" | "completed" | "failed" | "cancelled";

export interface EvalRunRow {
  id: string;
  status: EvalRunStatus;
  startedAt: string;
  endedAt: string | null;
  summary: JsonValue | null;
}

export type EvalVerdict = "pending" | "passed" | "failed" | "errored" | "skipped";

export interface EvalCaseRow {
  runId: string;
  caseId: string;
  verdict: EvalVerdict;
  assertions: JsonValue | null;
  sessionId: string | null;
  updatedAt: string;
}

/**
 * `started`: recorded before it ran; `finished`: it returned; `in_doubt`: it started and nobody saw it end (a crash,
 * or left running); `resolved`: in doubt until a person checked whether it took effect.
 */
export type ToolCallStatus = "started" | "finished" | "in_doubt" | "resolved";

/** What a finished tool call returned, as its `action.result` carries it. */
export interface ToolCallOutcome {
  output: unknown;
  isError: boolean;
  durationMs: number;
  stillRunning?: true;
}

/** One row of the side-effect ledger: a tool call of a turn. */
export interface ToolCallRow {
  sessionId: string;
  turnId: string;
  toolCallId: string;
  name: string;
  effect: "read" | "write";
  input: unknown;
  status: ToolCallStatus;
  outcome: ToolCallOutcome | null;
  startedAt: string;
  endedAt: string | null;
}
