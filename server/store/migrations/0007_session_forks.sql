ALTER TABLE `sessions` ADD `parent_id` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `forked_at` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `overrides` text;