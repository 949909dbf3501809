DROP INDEX `artifacts_kind_key`;--> statement-breakpoint
CREATE UNIQUE INDEX `artifacts_owner_kind_key` ON `artifacts` (`kind`,`key`,coalesce(`owner_type`, ''),coalesce(`owner_id`, ''));
