/**
 * Shapes of the public HTTP API as the playground reads them. Fields the
 * server may omit (or not have built yet) are optional: render defensively.
 */
import type { AnyBdkEvent, Principal, SessionMode, TokenUsage } from "../../server/protocol/events.ts";

export type { AnyBdkEvent, Principal, SessionMode, TokenUsage };

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
  needsApproval?: boolean | string;
  source?: string;
  inputSchema?: JsonSchema;
}

export interface ChannelRouteInfo {
  method?: string;
  path?: string;
  description?: string;
  bodySchema?: JsonSchema;
}

export interface ChannelInfo {
  id: string;
  kind?: string;
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

/** `GET /v1/info`: the same object as `bdk info --json`. */
export interface AgentInfo {
  ok?: boolean;
  name?: string;
  slug?: string;
  description?: string;
  model?: ModelInfo | string;
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
  description?: string;
  tags?: string[];
  file?: string;
  cases?: Array<{ id: string; description?: string }>;
}

export interface EvalAssertion {
  name?: string;
  label?: string;
  passed?: boolean;
  soft?: boolean;
  message?: string;
}

export interface EvalCaseResult {
  caseId: string;
  verdict?: string;
  sessionId?: string | null;
  assertions?: EvalAssertion[];
  durationMs?: number;
  error?: string;
}

export interface EvalRun {
  id: string;
  status?: string;
  startedAt?: string;
  endedAt?: string | null;
  summary?: { passed?: number; failed?: number; total?: number; [key: string]: unknown } | null;
  cases?: EvalCaseResult[];
}

export interface AgentIndexEntry {
  slug: string;
  name?: string;
  model?: string | ModelInfo;
  playgroundUrl?: string;
}
