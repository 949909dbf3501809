/** Schedules use 5-field cron in UTC with minute granularity, evaluated by croner. */
import { Cron } from "croner";

/** Why an expression is not a valid schedule, or undefined when it is. */
export function cronProblem(expression: unknown): string | undefined {
  if (typeof expression !== "string" || !expression.trim()) return "cron must be a non-empty string";
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) {
    return `cron "${expression}" has ${fields.length} field(s); schedules use 5 (minute hour day-of-month month day-of-week)`;
  }
  let cron: Cron;
  try {
    cron = new Cron(expression, { paused: true, timezone: "UTC" });
  } catch (error) {
    return `invalid cron "${expression}": ${(error as Error).message}`;
  }
  // Valid fields can still describe no date at all (February 31): the schedule would never fire.
  const next = cron.nextRun();
  cron.stop();
  return next ? undefined : `cron "${expression}" never fires: no date matches it`;
}

/** The next firing after `from`, as an ISO string (UTC), or undefined when there is none. */
export function nextFireTime(expression: string, from: Date = new Date()): string | undefined {
  if (cronProblem(expression)) return undefined;
  const cron = new Cron(expression, { paused: true, timezone: "UTC" });
  const next = cron.nextRun(from);
  cron.stop();
  return next?.toISOString();
}
