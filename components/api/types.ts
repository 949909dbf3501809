/**
 * Shapes of the public HTTP API as the playground reads them. Fields the
 * server may omit (or not have built yet) are optional: render defensively.
 */
import type { AnyBdkEvent, Principal, SessionMode, TokenUsage } from "../../server/protocol/events.ts";

export type { AnyBdkEvent, Principal, SessionMode, TokenUsage };
/** The stream's keepalive line while a turn is queued or running: its owner node, lease, and what it waits for. */
export type { TurnStatusLine as StreamKeepalive } from "../../server/sessions/stream-status.ts";
export type { ModelCall, TracedToolCall, TurnTrace } from "../../server/protocol/model-calls.ts";

export type JsonSchema = Record<string, unknown>;

export interface ModelInfo {
  id?: string;
  params?: Array<{ id?: string; value?: unknown }> | Record<string, unknown>;
  fallbackFrom?: string;
  [key: string]: unknown;
}

export interface ToolInfo {
  name: string;
  description?: string;
  execution?: string;
  effect?: string;
  /** No effect declared: it counts as `write`. */
  effectDefault?: boolean;
  needsApproval?: boolean | string;
  source?: string;
  inputSchema?: JsonSchema;
  /** A fork's stub answers instead of the tool. */
  stubbed?: boolean;
}

/** `GET /v1/agent/offer`: what the model is offered on a turn (docs/http-api.md). */
export interface ModelOffer {
  ok?: boolean;
  botVersion: string;
  /** The system prompt in the order the model reads it, each part with where it comes from. */
  systemPrompt: Array<{ source: "instructions" | "skills" | "workspace" | "memory" | "fork" | string; text: string }>;
  tools: Array<{
    name: string;
    source: "bot" | "built-in" | "mcp" | "extension" | "reminders" | "artifacts" | "subagents" | string;
    connection?: string;
    description: string;
    inputSchema?: JsonSchema;
    stubbed?: boolean;
  }>;
}

/** An armed reminder (`GET /v1/dev/reminders`). */
export interface ReminderInfo {
  id: string;
  purpose?: string;
  form?: string;
  prompt?: string;
  handler?: string;
  sessionId?: string;
  nextFireAt?: string;
  delay?: string;
  at?: string;
  every?: string;
  cron?: string;
}

export interface ChannelRouteInfo {
  method?: string;
  path?: string;
  description?: string;
  bodySchema?: JsonSchema;
}

export interface ChannelInfo {
  id: string;
  /** A platform pack (`slack`, `github`): its route is a signed webhook, not something to call by hand. */
  pack?: string;
  routes?: ChannelRouteInfo[];
}

export interface ScheduleInfo {
  name: string;
  cron?: string;
  nextFireAt?: string | null;
  description?: string;
  kind?: string;
}

export interface DiagnosticInfo {
  level?: string;
  severity?: string;
  code?: string;
  message?: string;
  file?: string;
  path?: string;
}

/** One MCP connection in `info`; `status` is present when the agent is running. */
export interface ConnectionInfo {
  name: string;
  scope?: "model" | "host";
  kind?: string;
  transport?: string;
  target?: string;
  description?: string;
  file?: string;
  status?: "idle" | "connected" | "error";
  error?: string;
  tools?: string[];
}

/** `GET /v1/info`: the same object as `bdk info --json`. */
export interface AgentInfo {
  ok?: boolean;
  name?: string;
  /** `defineAgent({ name })`, else `name`. */
  displayName?: string;
  slug?: string;
  description?: string;
  model?: ModelInfo | string;
  /** The always-on prompt in brief (the text itself is not sent). */
  instructions?: { source?: string; files?: string[]; length?: number; firstLine?: string };
  tools?: ToolInfo[];
  skills?: unknown;
  subagents?: unknown;
  connections?: unknown;
  channels?: ChannelInfo[];
  schedules?: ScheduleInfo[];
  hooks?: unknown;
  extensions?: unknown;
  /** Discovered filesystem evals (what `GET /v1/evals` would list). */
  evals?: EvalSummary[];
  diagnostics?: DiagnosticInfo[];
  dev?: boolean;
  [key: string]: unknown;
}

export interface CreateSessionResponse {
  ok: boolean;
  sessionId: string;
  continuationToken: string;
  turnId: string;
  playgroundUrl?: string;
  traceUrl?: string;
}

export interface FollowUpResponse {
  ok: boolean;
  sessionId?: string;
  continuationToken: string;
  turnId: string;
}

export type SessionStatus = "idle" | "running" | "waiting" | "completed" | "failed" | string;

export interface SessionSummary {
  id: string;
  title?: string | null;
  mode?: SessionMode;
  status?: SessionStatus;
  principal?: Principal | string;
  channel?: string;
  createdAt?: string;
  updatedAt?: string;
  lastIndex?: number;
  usage?: Partial<TokenUsage>;
  /** Set on a fork: the session it was cut from, and the source's index of the message it answers again. */
  parentId?: string;
  forkedAt?: number;
  overrides?: RunOverrides;
}

/** What a fork runs differently (`POST /v1/session/:id/fork`). */
export interface RunOverrides {
  model?: string;
  params?: { id: string; value: string }[];
  instructions?: string;
  toolResults?: Record<string, { output: unknown; isError?: boolean }>;
  /** Stubs of single calls: the `call`-th call of tool `name` in the session (inherited calls count). */
  toolCallResults?: { name: string; call: number; output: unknown; isError?: boolean }[];
}

/** Before a user message (re-sent, or `message` instead), or right after an event inside a turn (the fork picks the turn up). */
export type ForkPoint = { beforeIndex: number; message?: string } | { afterIndex: number };

export type ForkRequest = ForkPoint & {
  title?: string;
  overrides?: RunOverrides;
};

export interface ForkResponse extends CreateSessionResponse {
  parentId: string;
}

export interface DiffToolCall {
  name: string;
  input: unknown;
  output?: unknown;
  isError?: boolean;
  durationMs?: number;
}

export interface DiffTurn {
  index: number;
  message: string;
  reply: string;
  toolCalls: DiffToolCall[];
  usage: TokenUsage;
  durationMs?: number;
  model?: string;
  status: string;
}

export interface DiffRun {
  sessionId: string;
  from: number;
  turns: DiffTurn[];
  usage: TokenUsage;
  durationMs: number;
}

/** `GET /v1/session/:id/diff/:otherId`. */
export interface RunDiff {
  ok: boolean;
  before: DiffRun;
  after: DiffRun;
  turns: { position: number; before?: DiffTurn; after?: DiffTurn; messageChanged: boolean; replyChanged: boolean; toolCallsChanged: boolean }[];
  delta: { inputTokens: number; outputTokens: number; durationMs: number };
  identical: boolean;
}

export interface SessionsResponse {
  ok: boolean;
  sessions: SessionSummary[];
  nextCursor?: string | null;
}

export interface PendingApproval {
  approvalId: string;
  sessionId: string;
  toolCallId?: string;
  name: string;
  input?: unknown;
  createdAt?: string;
}

/** A write call a crash cut off (`action.in_doubt`), listed beside the approvals until someone clears it. */
export interface InDoubtCall {
  sessionId: string;
  turnId: string;
  toolCallId: string;
  name: string;
  input?: unknown;
  startedAt?: string;
}

/** A note `memoryHook` keeps of one completed turn (`GET /v1/memory`). */
export interface MemoryNote {
  id: string;
  scope: string;
  sessionId: string;
  principal: { type: string; id: string };
  note: string;
  createdAt: string;
}

export interface LogLine {
  id?: number;
  at: string;
  level: string;
  msg: string;
  data?: Record<string, unknown> | null;
  [key: string]: unknown;
}

export interface EvalSummary {
  id: string;
  description?: string | null;
  tags?: string[];
  file?: string;
  iterations?: number;
}

export interface EvalAssertion {
  name?: string;
  label?: string;
  passed?: boolean;
  /** Not evaluated (no judge model, say): never fails a case. */
  skipped?: boolean;
  /** 0..1 for graded assertions. */
  score?: number;
  /** "warning": soft, fails only under --strict. */
  severity?: "error" | "warning" | string;
  soft?: boolean;
  message?: string;
}

export interface EvalCaseResult {
  /** The server sends `id`; normalised to `caseId`. */
  caseId: string;
  id?: string;
  file?: string;
  description?: string;
  tags?: string[];
  verdict?: string;
  passRate?: number;
  sessionId?: string | null;
  assertions?: EvalAssertion[];
  durationMs?: number;
  error?: string;
}

export interface EvalCounts {
  total?: number;
  passed?: number;
  failed?: number;
  errored?: number;
  skipped?: number;
}

export interface EvalRun {
  /** The server sends `runId`; normalised to `id`. */
  id: string;
  runId?: string;
  /** The label it was started with. */
  name?: string;
  status?: string;
  passed?: boolean;
  startedAt?: string;
  endedAt?: string | null;
  durationMs?: number;
  counts?: EvalCounts;
  summary?: (EvalCounts & Record<string, unknown>) | null;
  cases?: EvalCaseResult[];
}

/** One assertion in two runs; a side is absent when that run did not record it. */
export interface EvalAssertionComparison {
  name: string;
  before?: EvalAssertion;
  after?: EvalAssertion;
  flipped: boolean;
}

export interface EvalComparison {
  before: string;
  after: string;
  cases: Array<{
    id: string;
    before?: string;
    after?: string;
    beforePassRate?: number;
    afterPassRate?: number;
    change: "improved" | "regressed" | "changed" | "added" | "removed" | "not_run" | "unchanged" | string;
    beforeSessionId?: string;
    afterSessionId?: string;
    beforeDurationMs?: number;
    afterDurationMs?: number;
    beforeError?: string;
    afterError?: string;
    /** Assertion by assertion (servers before this list none). */
    assertions?: EvalAssertionComparison[];
  }>;
  summary?: Record<string, number>;
}

export interface AgentIndexEntry {
  slug: string;
  name?: string;
  displayName?: string;
  description?: string;
  model?: string | ModelInfo;
  playgroundUrl?: string;
}
