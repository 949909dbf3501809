/** Shared authoring types: JSON values, model settings, the host surface tools and handlers see. */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A plain JSON Schema object (passed to the model as is). */
export interface JsonSchemaObject {
  type?: string | string[];
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/** `"grok-4.5"` or `{ id, params: [{ id: "effort", value: "high" }] }`. */
export type ModelSetting = string | { id: string; params?: { id: string; value: string }[] };

/** The raw MCP `CallToolResult` returned by `ctx.host.mcp.callTool`. */
export interface HostMcpCallResult {
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string; [key: string]: unknown }>;
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  [key: string]: unknown;
}

/** `ctx.host.kv`: durable JSON values per agent, shared by all its sessions. */
export interface HostKvApi {
  get(key: string): Promise<JsonValue | undefined>;
  put(key: string, value: JsonValue): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface Artifact {
  id: string;
  kind: string;
  key: string;
  title: string;
  data?: unknown;
  contentType?: string;
  sessionId?: string;
  createdAt: string;
  updatedAt: string;
}

export interface ArtifactTagInput {
  kind: string;
  key: string;
  title: string;
  data?: unknown;
  contents?: string;
  contentType?: string;
}

export interface ArtifactsApi {
  tag(artifact: ArtifactTagInput): Promise<{ id: string }>;
  list(filter?: { kind?: string; key?: string }): Promise<Artifact[]>;
}

export interface ReminderInput {
  purpose?: string;
  /** The conversation: a channel id and its continuation token, or `sessionId` (what tools of a session use). */
  channelId?: string;
  continuationToken?: string;
  sessionId?: string;
  delay?: string;
  at?: string;
  every?: string;
  cron?: string;
  prompt?: string;
  until?: string;
  /** The default export of `bot/reminders/<name>.ts` (or its name). */
  handler?: unknown;
  args?: JsonObject;
  /** An inline handler: kept in memory only, it must be re-armed after a restart. */
  run?: (args: { args: JsonObject; followup(input: { message: string }): Promise<void> }) => unknown;
}

export interface ReminderRecord {
  id: string;
  purpose?: string;
  channelId?: string;
  continuationToken?: string;
  nextFireAt?: string;
  [key: string]: unknown;
}

export interface RemindersApi {
  create(input: ReminderInput): Promise<{ id: string }>;
  list(filter?: { continuationToken?: string; channelId?: string; sessionId?: string }): Promise<ReminderRecord[]>;
  cancel(id: string): Promise<void>;
}

export interface HostServices {
  kv: HostKvApi;
  mcp: {
    names(): string[];
    /** In a tool, the call stops with the turn (the tool's `abortSignal`) unless `options.signal` says otherwise. */
    callTool(connection: string, tool: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<HostMcpCallResult>;
  };
  github: { getOctokit(): Promise<unknown> };
  /** Slack as the bot (`SLACK_BOT_TOKEN`): post to any channel or thread it is in, or use the whole `@slack/web-api` client. */
  slack: {
    postMessage(message: { channel: string; text: string; thread_ts?: string }): Promise<{ ts?: string }>;
    getClient(): Promise<unknown>;
  };
  reminders: RemindersApi;
  /** Metrics: OpenTelemetry instruments when the process exports OTLP, debug log lines otherwise. */
  otel: {
    /** A counter: adds `value` (default 1). */
    increment(name: string, valueOrAttrs?: number | Record<string, unknown>, attrs?: Record<string, unknown>): void;
    /** A histogram: one measurement (a size, a duration). */
    record(name: string, value: number, attrs?: Record<string, unknown>): void;
  };
}
