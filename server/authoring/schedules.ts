import { brand } from "./brand.ts";
import type { Principal } from "../protocol/events.ts";
import type { ReceiveFn } from "./channels.ts";
import type { ArtifactsApi, HostServices } from "./types.ts";

export interface ScheduleRunContext {
  receive: ReceiveFn;
  /** A server tool call without a model turn. */
  callTool(name: string, input: unknown): Promise<{ isError: boolean; result: unknown }>;
  waitUntil(promise: Promise<unknown>): void;
  /** The schedule's own principal, `app:schedule/<name>`. */
  appAuth: Principal;
  host: HostServices;
  artifacts: ArtifactsApi;
}

/** Exactly one of `markdown` (a task session with that prompt) or `run` (host code). */
export type ScheduleDefinition =
  | { cron: string; description?: string; markdown: string; run?: never }
  | { cron: string; description?: string; run(ctx: ScheduleRunContext): void | Promise<void>; markdown?: never };

/**
 * `bot/schedules/<name>.ts`: cron (5 fields, UTC).
 *
 * @example
 * export default defineSchedule({ cron: "0 9 * * 1-5", markdown: "Summarize open incidents." });
 */
export function defineSchedule<T extends ScheduleDefinition>(definition: T): T {
  return brand("schedule", definition);
}
