CREATE TABLE `idempotency_keys` (
	`session_id` text NOT NULL,
	`key` text NOT NULL,
	`request_digest` text NOT NULL,
	`answer` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`session_id`, `key`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
ALTER TABLE `turns` ADD `workspace_files` text;