CREATE TABLE `schedule_ticks` (
	`schedule_key` text NOT NULL,
	`tick_at` text NOT NULL,
	`claimed_by` text NOT NULL,
	`claimed_at` text NOT NULL,
	PRIMARY KEY(`schedule_key`, `tick_at`)
);
--> statement-breakpoint
CREATE INDEX `schedule_ticks_claimed` ON `schedule_ticks` (`claimed_at`);