/**
 * The state database of one agent (spec/runtime.md "Storage").
 *
 * Times are ISO-8601 text (`Date#toISOString`, so they sort as strings).
 * JSON columns are text decoded by drizzle. Rows owned by a session cascade
 * when the session row is deleted.
 *
 * Edit this file, then `npm run db:generate` to add a migration.
 */
import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    agent: text("agent"),
    title: text("title"),
    mode: text("mode", { enum: ["chat", "task"] }).notNull(),
    status: text("status", { enum: ["idle", "running", "waiting", "completed", "failed", "deleted"] }).notNull(),
    channel: text("channel").notNull(),
    principalType: text("principal_type", { enum: ["user", "service", "app"] }).notNull(),
    principalId: text("principal_id").notNull(),
    continuationToken: text("continuation_token"),
    channelState: text("channel_state", { mode: "json" }),
    purpose: text("purpose"),
    dryRun: integer("dry_run", { mode: "boolean" }).notNull().default(false),
    botVersion: text("bot_version"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    lastIndex: integer("last_index").notNull().default(-1),
    usage: text("usage", { mode: "json" }).notNull(),
    /** A working directory the channel chose for this session (a PR worktree); null: the agent's default. */
    workspaceDir: text("workspace_dir"),
    /** A fork's source session (kept as text, not a foreign key: deleting the source leaves its forks). */
    parentId: text("parent_id"),
    /** The source's event index the fork was cut at: its history is the source's events before it. */
    forkedAt: integer("forked_at"),
    /** What a fork runs differently (model, params, instructions, tool stubs); null: the agent as loaded. */
    overrides: text("overrides", { mode: "json" }),
  },
  (t) => [
    uniqueIndex("sessions_channel_token").on(t.channel, t.continuationToken),
    index("sessions_created").on(t.createdAt, t.id),
    index("sessions_principal_created").on(t.principalId, t.createdAt, t.id),
    index("sessions_status").on(t.status),
  ],
);

export const events = sqliteTable(
  "events",
  {
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    idx: integer("idx").notNull(),
    type: text("type").notNull(),
    turnId: text("turn_id"),
    at: text("at").notNull(),
    data: text("data", { mode: "json" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.idx] })],
);

export const turns = sqliteTable(
  "turns",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    status: text("status", {
      enum: ["queued", "running", "completed", "failed", "cancelled", "interrupted"],
    }).notNull(),
    message: text("message").notNull(),
    /** Files sent with the message (relative path → contents), kept until the turn has written them. */
    workspaceFiles: text("workspace_files", { mode: "json" }),
    botVersion: text("bot_version"),
    model: text("model"),
    createdAt: text("created_at").notNull(),
    startedAt: text("started_at"),
    endedAt: text("ended_at"),
    usage: text("usage", { mode: "json" }),
    /** A message of this queued turn asked to preempt the running one; the node running it clears the flag as it does (turn-lease.ts). */
    preempts: integer("preempts", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("turns_session").on(t.sessionId, t.createdAt), index("turns_status").on(t.status)],
);

export const approvals = sqliteTable(
  "approvals",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    turnId: text("turn_id").notNull(),
    toolCallId: text("tool_call_id").notNull(),
    name: text("name").notNull(),
    input: text("input", { mode: "json" }),
    status: text("status", { enum: ["pending", "approved", "denied"] }).notNull(),
    resolvedBy: text("resolved_by"),
    reason: text("reason"),
    createdAt: text("created_at").notNull(),
    resolvedAt: text("resolved_at"),
  },
  (t) => [index("approvals_status").on(t.status, t.createdAt), index("approvals_session").on(t.sessionId)],
);

export const kv = sqliteTable(
  "kv",
  {
    agent: text("agent").notNull(),
    key: text("key").notNull(),
    value: text("value", { mode: "json" }).notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.agent, t.key] })],
);

export const artifacts = sqliteTable(
  "artifacts",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    key: text("key").notNull(),
    title: text("title").notNull(),
    data: text("data", { mode: "json" }),
    contents: blob("contents", { mode: "buffer" }),
    contentType: text("content_type"),
    sessionId: text("session_id").references(() => sessions.id, { onDelete: "set null" }),
    /** The principal of the session that tagged it (kept when the session is deleted); null: tagged outside a session. */
    ownerType: text("owner_type", { enum: ["user", "service", "app"] }),
    ownerId: text("owner_id"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // One record per owner, kind and key: another principal's tag of the same kind + key is its own record.
    // coalesce: unowned records (null owner) share one identity too; SQLite keeps NULLs distinct in unique indexes.
    uniqueIndex("artifacts_owner_kind_key").on(t.kind, t.key, sql`coalesce(${t.ownerType}, '')`, sql`coalesce(${t.ownerId}, '')`),
    index("artifacts_updated").on(t.updatedAt),
  ],
);

export const reminders = sqliteTable(
  "reminders",
  {
    id: text("id").primaryKey(),
    spec: text("spec", { mode: "json" }).notNull(),
    nextFireAt: text("next_fire_at"),
    status: text("status", { enum: ["armed", "done", "cancelled"] }).notNull(),
    lastFiredAt: text("last_fired_at"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("reminders_due").on(t.status, t.nextFireAt)],
);

export const evalRuns = sqliteTable(
  "eval_runs",
  {
    id: text("id").primaryKey(),
    status: text("status", { enum: ["running", "completed", "failed", "cancelled"] }).notNull(),
    startedAt: text("started_at").notNull(),
    endedAt: text("ended_at"),
    summary: text("summary", { mode: "json" }),
  },
  (t) => [index("eval_runs_started").on(t.startedAt)],
);

export const evalCases = sqliteTable(
  "eval_cases",
  {
    runId: text("run_id")
      .notNull()
      .references(() => evalRuns.id, { onDelete: "cascade" }),
    caseId: text("case_id").notNull(),
    verdict: text("verdict", { enum: ["pending", "passed", "failed", "errored", "skipped"] }).notNull(),
    assertions: text("assertions", { mode: "json" }),
    sessionId: text("session_id"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.caseId] })],
);

export const logs = sqliteTable(
  "logs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: text("at").notNull(),
    level: text("level", { enum: ["debug", "info", "warn", "error"] }).notNull(),
    msg: text("msg").notNull(),
    data: text("data", { mode: "json" }),
  },
  (t) => [index("logs_at").on(t.at)],
);

export const leases = sqliteTable("leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: text("expires_at").notNull(),
});


/**
 * Schedule ticks claimed for firing: the first process or node to insert a
 * `(schedule, tick)` fires it, every other gets a conflict. Pruned by claim
 * time, not tick time, so a late catch-up of an old tick still meets its claim.
 */
export const scheduleTicks = sqliteTable(
  "schedule_ticks",
  {
    scheduleKey: text("schedule_key").notNull(),
    tickAt: text("tick_at").notNull(),
    claimedBy: text("claimed_by").notNull(),
    claimedAt: text("claimed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scheduleKey, t.tickAt] }), index("schedule_ticks_claimed").on(t.claimedAt)],
);

/** `memoryHook`: one compact note per completed turn, recalled by scope (`principal:<type>:<id>`, `agent`, `session:<id>`). */
export const memoryNotes = sqliteTable(
  "memory_notes",
  {
    id: text("id").primaryKey(),
    agent: text("agent").notNull(),
    scope: text("scope").notNull(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    turnId: text("turn_id").notNull(),
    principalType: text("principal_type", { enum: ["user", "service", "app"] }).notNull(),
    principalId: text("principal_id").notNull(),
    note: text("note").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("memory_notes_scope").on(t.agent, t.scope, t.createdAt)],
);

/**
 * `Idempotency-Key` of a follow-up: the answer a message got, stored in the
 * transaction that accepted it, so a retry of a lost response gets it again.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** A digest of the request it answered: the same key with another message is refused. */
    requestDigest: text("request_digest").notNull(),
    answer: text("answer", { mode: "json" }).notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.key] }), index("idempotency_keys_created").on(t.createdAt)],
);

/**
 * The side-effect ledger: each tool call a turn runs, recorded before it
 * runs (`started`) and when it returns (`finished`, with its outcome). After
 * a crash a `started` row is a call that may or may not have taken effect:
 * recovery marks it `in_doubt` instead of running it again.
 */
export const toolCalls = sqliteTable(
  "tool_calls",
  {
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    turnId: text("turn_id").notNull(),
    toolCallId: text("tool_call_id").notNull(),
    name: text("name").notNull(),
    effect: text("effect", { enum: ["read", "write"] }).notNull(),
    input: text("input", { mode: "json" }),
    status: text("status", { enum: ["started", "finished", "in_doubt", "resolved"] }).notNull(),
    /** `{ output, isError, durationMs, stillRunning? }` once it returned. */
    outcome: text("outcome", { mode: "json" }),
    startedAt: text("started_at").notNull(),
    endedAt: text("ended_at"),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.turnId, t.toolCallId] }), index("tool_calls_status").on(t.status, t.startedAt)],
);

/**
 * What each model step was sent and answered (the Trace tab's content),
 * written with the step's `step.completed`. A subagent's steps carry the
 * parent's `task` call id as `scope` (empty for the turn's own steps). To
 * keep a long session from storing its history once per step, a row holds
 * only what changed since the previous row of its chain (session + scope):
 * `system`/`tools` are null when unchanged, and `request.messages` lists the
 * messages after the first `request.base` of the previous row's.
 */
export const modelCalls = sqliteTable(
  "model_calls",
  {
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    turnId: text("turn_id").notNull(),
    scope: text("scope").notNull(),
    step: integer("step").notNull(),
    startedAt: text("started_at").notNull(),
    durationMs: real("duration_ms").notNull(),
    system: text("system"),
    tools: text("tools", { mode: "json" }),
    request: text("request", { mode: "json" }).notNull(),
    response: text("response", { mode: "json" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.turnId, t.scope, t.step] }), index("model_calls_chain").on(t.sessionId, t.scope)],
);
