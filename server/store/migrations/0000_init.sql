CREATE TABLE `approvals` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`turn_id` text NOT NULL,
	`tool_call_id` text NOT NULL,
	`name` text NOT NULL,
	`input` text,
	`status` text NOT NULL,
	`resolved_by` text,
	`reason` text,
	`created_at` text NOT NULL,
	`resolved_at` text,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `approvals_status` ON `approvals` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `approvals_session` ON `approvals` (`session_id`);--> statement-breakpoint
CREATE TABLE `artifacts` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`key` text NOT NULL,
	`title` text NOT NULL,
	`data` text,
	`contents` blob,
	`content_type` text,
	`session_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `artifacts_kind_key` ON `artifacts` (`kind`,`key`);--> statement-breakpoint
CREATE INDEX `artifacts_updated` ON `artifacts` (`updated_at`);--> statement-breakpoint
CREATE TABLE `eval_cases` (
	`run_id` text NOT NULL,
	`case_id` text NOT NULL,
	`verdict` text NOT NULL,
	`assertions` text,
	`session_id` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`run_id`, `case_id`),
	FOREIGN KEY (`run_id`) REFERENCES `eval_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `eval_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`started_at` text NOT NULL,
	`ended_at` text,
	`summary` text
);
--> statement-breakpoint
CREATE INDEX `eval_runs_started` ON `eval_runs` (`started_at`);--> statement-breakpoint
CREATE TABLE `events` (
	`session_id` text NOT NULL,
	`idx` integer NOT NULL,
	`type` text NOT NULL,
	`turn_id` text,
	`at` text NOT NULL,
	`data` text NOT NULL,
	PRIMARY KEY(`session_id`, `idx`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `kv` (
	`agent` text NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`agent`, `key`)
);
--> statement-breakpoint
CREATE TABLE `leases` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` text NOT NULL,
	`level` text NOT NULL,
	`msg` text NOT NULL,
	`data` text
);
--> statement-breakpoint
CREATE INDEX `logs_at` ON `logs` (`at`);--> statement-breakpoint
CREATE TABLE `reminders` (
	`id` text PRIMARY KEY NOT NULL,
	`spec` text NOT NULL,
	`next_fire_at` text,
	`status` text NOT NULL,
	`last_fired_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `reminders_due` ON `reminders` (`status`,`next_fire_at`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`agent` text,
	`title` text,
	`mode` text NOT NULL,
	`status` text NOT NULL,
	`channel` text NOT NULL,
	`principal_type` text NOT NULL,
	`principal_id` text NOT NULL,
	`continuation_token` text,
	`channel_state` text,
	`purpose` text,
	`dry_run` integer DEFAULT false NOT NULL,
	`bot_version` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`last_index` integer DEFAULT -1 NOT NULL,
	`usage` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_channel_token` ON `sessions` (`channel`,`continuation_token`);--> statement-breakpoint
CREATE INDEX `sessions_created` ON `sessions` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_principal_created` ON `sessions` (`principal_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_status` ON `sessions` (`status`);--> statement-breakpoint
CREATE TABLE `turns` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`status` text NOT NULL,
	`message` text NOT NULL,
	`bot_version` text,
	`model` text,
	`created_at` text NOT NULL,
	`started_at` text,
	`ended_at` text,
	`usage` text,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `turns_session` ON `turns` (`session_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `turns_status` ON `turns` (`status`);