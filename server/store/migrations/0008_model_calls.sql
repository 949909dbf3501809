CREATE TABLE `model_calls` (
	`session_id` text NOT NULL,
	`turn_id` text NOT NULL,
	`scope` text NOT NULL,
	`step` integer NOT NULL,
	`started_at` text NOT NULL,
	`duration_ms` real NOT NULL,
	`system` text,
	`tools` text,
	`request` text NOT NULL,
	`response` text NOT NULL,
	PRIMARY KEY(`session_id`, `turn_id`, `scope`, `step`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `model_calls_chain` ON `model_calls` (`session_id`,`scope`);