CREATE TABLE "approvals" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"turn_id" text NOT NULL,
	"tool_call_id" text NOT NULL,
	"name" text NOT NULL,
	"input" jsonb,
	"status" text NOT NULL,
	"resolved_by" text,
	"reason" text,
	"created_at" text NOT NULL,
	"resolved_at" text
);
--> statement-breakpoint
CREATE TABLE "artifacts" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"title" text NOT NULL,
	"data" jsonb,
	"contents" "bytea",
	"content_type" text,
	"session_id" text,
	"owner_type" text,
	"owner_id" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "artifacts_owner_kind_key" UNIQUE NULLS NOT DISTINCT("kind","key","owner_type","owner_id")
);
--> statement-breakpoint
CREATE TABLE "eval_cases" (
	"run_id" text NOT NULL,
	"case_id" text NOT NULL,
	"verdict" text NOT NULL,
	"assertions" jsonb,
	"session_id" text,
	"updated_at" text NOT NULL,
	CONSTRAINT "eval_cases_run_id_case_id_pk" PRIMARY KEY("run_id","case_id")
);
--> statement-breakpoint
CREATE TABLE "eval_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"started_at" text NOT NULL,
	"ended_at" text,
	"summary" jsonb
);
--> statement-breakpoint
CREATE TABLE "events" (
	"session_id" text NOT NULL,
	"idx" integer NOT NULL,
	"type" text NOT NULL,
	"turn_id" text,
	"at" text NOT NULL,
	"data" json NOT NULL,
	CONSTRAINT "events_session_id_idx_pk" PRIMARY KEY("session_id","idx")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"session_id" text NOT NULL,
	"key" text NOT NULL,
	"request_digest" text NOT NULL,
	"answer" jsonb NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "idempotency_keys_session_id_key_pk" PRIMARY KEY("session_id","key")
);
--> statement-breakpoint
CREATE TABLE "kv" (
	"agent" text NOT NULL,
	"key" text NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "kv_agent_key_pk" PRIMARY KEY("agent","key")
);
--> statement-breakpoint
CREATE TABLE "leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"at" text NOT NULL,
	"level" text NOT NULL,
	"msg" text NOT NULL,
	"data" jsonb
);
--> statement-breakpoint
CREATE TABLE "memory_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"agent" text NOT NULL,
	"scope" text NOT NULL,
	"session_id" text NOT NULL,
	"turn_id" text NOT NULL,
	"principal_type" text NOT NULL,
	"principal_id" text NOT NULL,
	"note" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reminders" (
	"id" text PRIMARY KEY NOT NULL,
	"spec" jsonb NOT NULL,
	"next_fire_at" text,
	"status" text NOT NULL,
	"last_fired_at" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_owners" (
	"session_id" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"token" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"agent" text,
	"title" text,
	"mode" text NOT NULL,
	"status" text NOT NULL,
	"channel" text NOT NULL,
	"principal_type" text NOT NULL,
	"principal_id" text NOT NULL,
	"continuation_token" text,
	"channel_state" jsonb,
	"purpose" text,
	"dry_run" boolean DEFAULT false NOT NULL,
	"bot_version" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	"last_index" integer DEFAULT -1 NOT NULL,
	"usage" jsonb NOT NULL,
	"workspace_dir" text,
	"parent_id" text,
	"forked_at" integer,
	"overrides" jsonb
);
--> statement-breakpoint
CREATE TABLE "tool_calls" (
	"session_id" text NOT NULL,
	"turn_id" text NOT NULL,
	"tool_call_id" text NOT NULL,
	"name" text NOT NULL,
	"effect" text NOT NULL,
	"input" jsonb,
	"status" text NOT NULL,
	"outcome" jsonb,
	"started_at" text NOT NULL,
	"ended_at" text,
	"seq" serial NOT NULL,
	CONSTRAINT "tool_calls_session_id_turn_id_tool_call_id_pk" PRIMARY KEY("session_id","turn_id","tool_call_id")
);
--> statement-breakpoint
CREATE TABLE "turns" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"status" text NOT NULL,
	"message" text NOT NULL,
	"workspace_files" jsonb,
	"bot_version" text,
	"model" text,
	"created_at" text NOT NULL,
	"started_at" text,
	"ended_at" text,
	"usage" jsonb
);
--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eval_cases" ADD CONSTRAINT "eval_cases_run_id_eval_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."eval_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_notes" ADD CONSTRAINT "memory_notes_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_owners" ADD CONSTRAINT "session_owners_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_calls" ADD CONSTRAINT "tool_calls_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "turns" ADD CONSTRAINT "turns_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approvals_status" ON "approvals" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "approvals_session" ON "approvals" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "artifacts_updated" ON "artifacts" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "eval_runs_started" ON "eval_runs" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "events_turn" ON "events" USING btree ("session_id","turn_id","type");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "logs_at" ON "logs" USING btree ("at");--> statement-breakpoint
CREATE INDEX "memory_notes_scope" ON "memory_notes" USING btree ("agent","scope","created_at");--> statement-breakpoint
CREATE INDEX "reminders_due" ON "reminders" USING btree ("status","next_fire_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_channel_token" ON "sessions" USING btree ("channel","continuation_token");--> statement-breakpoint
CREATE INDEX "sessions_created" ON "sessions" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "sessions_principal_created" ON "sessions" USING btree ("principal_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sessions_status" ON "sessions" USING btree ("status");--> statement-breakpoint
CREATE INDEX "tool_calls_status" ON "tool_calls" USING btree ("status","started_at");--> statement-breakpoint
CREATE INDEX "turns_session" ON "turns" USING btree ("session_id","created_at");--> statement-breakpoint
CREATE INDEX "turns_status" ON "turns" USING btree ("status");