CREATE TABLE "model_calls" (
	"session_id" text NOT NULL,
	"turn_id" text NOT NULL,
	"scope" text NOT NULL,
	"step" integer NOT NULL,
	"started_at" text NOT NULL,
	"duration_ms" double precision NOT NULL,
	"system" text,
	"tools" text,
	"request" text NOT NULL,
	"response" text NOT NULL,
	"seq" bigserial NOT NULL,
	CONSTRAINT "model_calls_session_id_turn_id_scope_step_pk" PRIMARY KEY("session_id","turn_id","scope","step")
);
--> statement-breakpoint
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "model_calls_chain" ON "model_calls" USING btree ("session_id","scope");