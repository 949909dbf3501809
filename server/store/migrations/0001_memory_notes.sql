CREATE TABLE `memory_notes` (
	`id` text PRIMARY KEY NOT NULL,
	`agent` text NOT NULL,
	`scope` text NOT NULL,
	`session_id` text NOT NULL,
	`turn_id` text NOT NULL,
	`principal_type` text NOT NULL,
	`principal_id` text NOT NULL,
	`note` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `memory_notes_scope` ON `memory_notes` (`agent`,`scope`,`created_at`);