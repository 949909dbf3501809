/**
 * The state database on Postgres: server/store/schema.ts table for table,
 * same names, same columns, so a row reads back as the same plain object in
 * both dialects and the repositories share their row mappers. Times are the
 * same ISO-8601 text (the store clock, sorting as strings); JSON columns are
 * `jsonb`, except the event payload (`json`: the replay fast path streams
 * the stored text, whose key order `jsonb` would not keep). The one table
 * SQLite has no twin for is `session_owners` (the fenced owner of a session,
 * issue 16 item 2), whose expiry is the database clock's.
 *
 * Edit this file, then `npm run db:generate:pg` to add a migration.
 */
import { bigint, bigserial, boolean, customType, doublePrecision, index, integer, jsonb, json, pgTable, primaryKey, serial, text, timestamp, unique, uniqueIndex } from "drizzle-orm/pg-core";

const PRINCIPAL_TYPES = ["user", "service", "app"] as const;

/** `bytea` as a Buffer (node-postgres returns one). */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    agent: text("agent"),
    title: text("title"),
    mode: text("mode", { enum: ["chat", "task"] }).notNull(),
    status: text("status", { enum: ["idle", "running", "waiting", "completed", "failed", "deleted"] }).notNull(),
    channel: text("channel").notNull(),
    principalType: text("principal_type", { enum: PRINCIPAL_TYPES }).notNull(),
    principalId: text("principal_id").notNull(),
    continuationToken: text("continuation_token"),
    channelState: jsonb("channel_state"),
    purpose: text("purpose"),
    dryRun: boolean("dry_run").notNull().default(false),
    botVersion: text("bot_version"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    lastIndex: integer("last_index").notNull().default(-1),
    usage: jsonb("usage").notNull(),
    workspaceDir: text("workspace_dir"),
    parentId: text("parent_id"),
    forkedAt: integer("forked_at"),
    overrides: jsonb("overrides"),
  },
  (t) => [
    uniqueIndex("sessions_channel_token").on(t.channel, t.continuationToken),
    index("sessions_created").on(t.createdAt, t.id),
    index("sessions_principal_created").on(t.principalId, t.createdAt, t.id),
    index("sessions_status").on(t.status),
  ],
);

export const events = pgTable(
  "events",
  {
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    idx: integer("idx").notNull(),
    type: text("type").notNull(),
    turnId: text("turn_id"),
    at: text("at").notNull(),
    data: json("data").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.idx] }), index("events_turn").on(t.sessionId, t.turnId, t.type)],
);

/** One row per session that a node owns or owned: its lease (database clock) and fencing token. */
export const sessionOwners = pgTable("session_owners", {
  sessionId: text("session_id")
    .primaryKey()
    .references(() => sessions.id, { onDelete: "cascade" }),
  holder: text("holder").notNull(),
  token: bigint("token", { mode: "number" }).notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

export const turns = pgTable(
  "turns",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["queued", "running", "completed", "failed", "cancelled", "interrupted"] }).notNull(),
    message: text("message").notNull(),
    workspaceFiles: jsonb("workspace_files"),
    botVersion: text("bot_version"),
    model: text("model"),
    createdAt: text("created_at").notNull(),
    startedAt: text("started_at"),
    endedAt: text("ended_at"),
    usage: jsonb("usage"),
    preempts: boolean("preempts").notNull().default(false),
  },
  (t) => [index("turns_session").on(t.sessionId, t.createdAt), index("turns_status").on(t.status)],
);

export const approvals = pgTable(
  "approvals",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    turnId: text("turn_id").notNull(),
    toolCallId: text("tool_call_id").notNull(),
    name: text("name").notNull(),
    input: jsonb("input"),
    status: text("status", { enum: ["pending", "approved", "denied"] }).notNull(),
    resolvedBy: text("resolved_by"),
    reason: text("reason"),
    createdAt: text("created_at").notNull(),
    resolvedAt: text("resolved_at"),
  },
  (t) => [index("approvals_status").on(t.status, t.createdAt), index("approvals_session").on(t.sessionId)],
);

export const kv = pgTable(
  "kv",
  {
    agent: text("agent").notNull(),
    key: text("key").notNull(),
    value: jsonb("value").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.agent, t.key] })],
);

export const artifacts = pgTable(
  "artifacts",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    key: text("key").notNull(),
    title: text("title").notNull(),
    data: jsonb("data"),
    contents: bytea("contents"),
    contentType: text("content_type"),
    sessionId: text("session_id").references(() => sessions.id, { onDelete: "set null" }),
    ownerType: text("owner_type", { enum: PRINCIPAL_TYPES }),
    ownerId: text("owner_id"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // NULLS NOT DISTINCT (Postgres 15+): unowned records share one identity, as coalesce() gives them on SQLite;
    // plain columns, so an upsert names them as its conflict target.
    unique("artifacts_owner_kind_key").on(t.kind, t.key, t.ownerType, t.ownerId).nullsNotDistinct(),
    index("artifacts_updated").on(t.updatedAt),
  ],
);

export const reminders = pgTable(
  "reminders",
  {
    id: text("id").primaryKey(),
    spec: jsonb("spec").notNull(),
    nextFireAt: text("next_fire_at"),
    status: text("status", { enum: ["armed", "done", "cancelled"] }).notNull(),
    lastFiredAt: text("last_fired_at"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("reminders_due").on(t.status, t.nextFireAt)],
);

export const evalRuns = pgTable(
  "eval_runs",
  {
    id: text("id").primaryKey(),
    status: text("status", { enum: ["running", "completed", "failed", "cancelled"] }).notNull(),
    startedAt: text("started_at").notNull(),
    endedAt: text("ended_at"),
    summary: jsonb("summary"),
  },
  (t) => [index("eval_runs_started").on(t.startedAt)],
);

export const evalCases = pgTable(
  "eval_cases",
  {
    runId: text("run_id")
      .notNull()
      .references(() => evalRuns.id, { onDelete: "cascade" }),
    caseId: text("case_id").notNull(),
    verdict: text("verdict", { enum: ["pending", "passed", "failed", "errored", "skipped"] }).notNull(),
    assertions: jsonb("assertions"),
    sessionId: text("session_id"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.caseId] })],
);

export const logs = pgTable(
  "logs",
  {
    id: serial("id").primaryKey(),
    at: text("at").notNull(),
    level: text("level", { enum: ["debug", "info", "warn", "error"] }).notNull(),
    msg: text("msg").notNull(),
    data: jsonb("data"),
  },
  (t) => [index("logs_at").on(t.at)],
);

export const leases = pgTable("leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: text("expires_at").notNull(),
});

/**
 * Schedule ticks claimed for firing: the first process or node to insert a
 * `(schedule, tick)` fires it, every other gets a conflict. Pruned by claim
 * time, not tick time, so a late catch-up of an old tick still meets its claim.
 */
export const scheduleTicks = pgTable(
  "schedule_ticks",
  {
    scheduleKey: text("schedule_key").notNull(),
    tickAt: text("tick_at").notNull(),
    claimedBy: text("claimed_by").notNull(),
    claimedAt: text("claimed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scheduleKey, t.tickAt] }), index("schedule_ticks_claimed").on(t.claimedAt)],
);

export const memoryNotes = pgTable(
  "memory_notes",
  {
    id: text("id").primaryKey(),
    agent: text("agent").notNull(),
    scope: text("scope").notNull(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    turnId: text("turn_id").notNull(),
    principalType: text("principal_type", { enum: PRINCIPAL_TYPES }).notNull(),
    principalId: text("principal_id").notNull(),
    note: text("note").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("memory_notes_scope").on(t.agent, t.scope, t.createdAt)],
);

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    requestDigest: text("request_digest").notNull(),
    answer: jsonb("answer").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.key] }), index("idempotency_keys_created").on(t.createdAt)],
);

export const toolCalls = pgTable(
  "tool_calls",
  {
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    turnId: text("turn_id").notNull(),
    toolCallId: text("tool_call_id").notNull(),
    name: text("name").notNull(),
    effect: text("effect", { enum: ["read", "write"] }).notNull(),
    input: jsonb("input"),
    status: text("status", { enum: ["started", "finished", "in_doubt", "resolved"] }).notNull(),
    outcome: jsonb("outcome"),
    startedAt: text("started_at").notNull(),
    endedAt: text("ended_at"),
    /** Insertion order (SQLite's rowid): the order a turn ran its calls. */
    seq: serial("seq").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.turnId, t.toolCallId] }), index("tool_calls_status").on(t.status, t.startedAt)],
);

/** What each model step was sent and answered (server/store/model-calls.ts): the JSON as text, written once and read whole. */
export const modelCalls = pgTable(
  "model_calls",
  {
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    turnId: text("turn_id").notNull(),
    scope: text("scope").notNull(),
    step: integer("step").notNull(),
    startedAt: text("started_at").notNull(),
    durationMs: doublePrecision("duration_ms").notNull(),
    system: text("system"),
    tools: text("tools"),
    request: text("request").notNull(),
    response: text("response").notNull(),
    /** Insertion order (SQLite's rowid): a chain's rows fold in the order they were written. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.turnId, t.scope, t.step] }), index("model_calls_chain").on(t.sessionId, t.scope)],
);
