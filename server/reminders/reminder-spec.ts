/**
 * What a stored reminder is (the JSON in `reminders.spec`) and when it fires.
 * One-shots (`delay`, `at`) fire once; recurring ones (`every`, `cron`) keep
 * their cadence and skip ticks that passed while nothing was running.
 */
import type { JsonObject, ReminderRecord } from "../authoring/types.ts";
import { cronProblem, nextFireTime } from "../discover/cron.ts";
import { BdkError } from "../protocol/errors.ts";
import type { Principal } from "../protocol/events.ts";
import type { ReminderRow } from "../store/types.ts";
import { parseDuration } from "./durations.ts";

export const TIMING_KINDS = ["delay", "at", "every", "cron"] as const;
export type TimingKind = (typeof TIMING_KINDS)[number];

export interface ReminderTiming {
  kind: TimingKind;
  value: string;
}

export interface StoredReminder {
  purpose?: string;
  /** The conversation: a channel id plus its continuation token, or a session id. */
  channelId: string;
  continuationToken?: string;
  sessionId?: string;
  timing: ReminderTiming;
  prompt?: string;
  until?: string;
  /** Name of the `bot/reminders/<name>.ts` handler. */
  handler?: string;
  /** An inline `run`: kept in memory only, so it does not survive a restart. */
  anonymous?: boolean;
  args?: JsonObject;
  /** Who a reminder that has to start its conversation starts it as. */
  principal?: Principal;
}

/** Exactly one of delay | at | every | cron, checked. */
export function timingOf(input: Partial<Record<TimingKind, unknown>>): ReminderTiming {
  const given = TIMING_KINDS.filter((kind) => input[kind] !== undefined);
  if (given.length !== 1) {
    throw new BdkError(
      "invalid_request",
      given.length === 0
        ? "A reminder needs one of delay, at, every or cron."
        : `A reminder takes exactly one of delay, at, every or cron (got ${given.join(", ")}).`,
    );
  }
  const kind = given[0];
  const value = input[kind];
  if (typeof value !== "string" || !value.trim()) throw new BdkError("invalid_request", `${kind} must be a non-empty string.`);
  const problem = timingProblem(kind, value);
  if (problem) throw new BdkError("invalid_request", problem);
  return { kind, value: value.trim() };
}

function timingProblem(kind: TimingKind, value: string): string | undefined {
  switch (kind) {
    case "delay":
    case "every": {
      const ms = parseDuration(value);
      if (ms === undefined) return `${kind} "${value}" is not a duration: use forms like "90s", "30m", "2h", "1d".`;
      if (kind === "every" && ms < 1000) return `every "${value}" is shorter than one second.`;
      return undefined;
    }
    case "at":
      return Number.isNaN(Date.parse(value)) ? `at "${value}" is not an ISO date-time (e.g. "2026-05-01T09:00:00Z").` : undefined;
    case "cron":
      return cronProblem(value);
  }
}

/** When a reminder created at `now` first fires. */
export function firstFireAt(timing: ReminderTiming, now: Date): Date {
  switch (timing.kind) {
    case "delay":
    case "every":
      return new Date(now.getTime() + parseDuration(timing.value)!);
    case "at":
      return new Date(timing.value);
    case "cron":
      return new Date(nextFireTime(timing.value, now)!);
  }
}

/** The tick after one scheduled at `scheduledAt`, never in the past; undefined for one-shots. */
export function nextFireAfter(timing: ReminderTiming, scheduledAt: Date, now: Date): Date | undefined {
  switch (timing.kind) {
    case "delay":
    case "at":
      return undefined;
    case "every": {
      const interval = parseDuration(timing.value)!;
      const behind = Math.max(0, now.getTime() - scheduledAt.getTime());
      return new Date(scheduledAt.getTime() + (Math.floor(behind / interval) + 1) * interval);
    }
    case "cron": {
      const from = scheduledAt.getTime() > now.getTime() ? scheduledAt : now;
      const next = nextFireTime(timing.value, from);
      return next ? new Date(next) : undefined;
    }
  }
}

export function isRecurring(timing: ReminderTiming): boolean {
  return timing.kind === "every" || timing.kind === "cron";
}

/** The public view of a stored reminder (`host.reminders.list`, the dev route). */
export function reminderRecord(row: ReminderRow): ReminderRecord {
  const spec = row.spec as unknown as StoredReminder;
  return {
    id: row.id,
    purpose: spec.purpose,
    channelId: spec.channelId,
    continuationToken: spec.continuationToken,
    sessionId: spec.sessionId,
    [spec.timing.kind]: spec.timing.value,
    form: spec.prompt !== undefined ? "prompt" : spec.anonymous ? "run" : "handler",
    prompt: spec.prompt,
    until: spec.until,
    handler: spec.handler,
    args: spec.args,
    status: row.status,
    nextFireAt: row.nextFireAt ?? undefined,
    lastFiredAt: row.lastFiredAt ?? undefined,
    createdAt: row.createdAt,
  };
}

/** The message a prompt reminder sends: the prompt, plus the standing condition under which to cancel it. */
export function reminderMessage(id: string, spec: StoredReminder, text: string): string {
  const lines = [`[Reminder ${id}${spec.purpose ? ` (${spec.purpose})` : ""}]`, text];
  if (spec.until) {
    lines.push(
      isRecurring(spec.timing)
        ? `Standing condition: ${spec.until} When it holds, cancel this reminder (reminders_cancel with id "${id}") instead of acting.`
        : `Standing condition: ${spec.until} When it holds, there is nothing to do.`,
    );
  }
  return lines.join("\n");
}
