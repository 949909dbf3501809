CREATE TABLE `tool_calls` (
	`session_id` text NOT NULL,
	`turn_id` text NOT NULL,
	`tool_call_id` text NOT NULL,
	`name` text NOT NULL,
	`effect` text NOT NULL,
	`input` text,
	`status` text NOT NULL,
	`outcome` text,
	`started_at` text NOT NULL,
	`ended_at` text,
	PRIMARY KEY(`session_id`, `turn_id`, `tool_call_id`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tool_calls_status` ON `tool_calls` (`status`,`started_at`);