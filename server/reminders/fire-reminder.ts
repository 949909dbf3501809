/**
 * One tick of a reminder: a prompt goes into its conversation; a handler
 * runs and wakes the conversation only through `followup`. The stored
 * schedule moves on (next tick, or done for a one-shot) in the transaction
 * that stores the tick's first message, so a crash never marks a tick done
 * whose message is lost, and a tick whose message could not be stored stays
 * due (it fires again); a tick that sends nothing moves on when its handler
 * ends. A handler that throws counts as `skip` and is logged.
 *
 * A timer's tick moves on by `reminders.claim` for the due time it saw, so
 * of two processes (or nodes) that see the same tick due, one stores its
 * message and the other stores nothing: its `followup` sends nothing and its
 * firing ends as a `skip`. A handler may still run on both in that window;
 * only one wakes the conversation.
 */
import type { ReminderDefinition } from "../authoring/reminders.ts";
import type { JsonValue } from "../authoring/types.ts";
import type { ChannelHub } from "../channels/channel-hub.ts";
import type { Logger } from "../host/logger.ts";
import { BdkError, messageOf } from "../protocol/errors.ts";
import type { Clock } from "../schedules/clock.ts";
import type { AsyncRepositories, AsyncStore } from "../store/async-store.ts";
import type { ReminderPatch } from "../store/index.ts";
import type { ReminderRow } from "../store/types.ts";
import type { ReminderBook, ReminderRun } from "./reminder-book.ts";
import { isRecurring, nextFireAfter, reminderMessage, type StoredReminder } from "./reminder-spec.ts";

export type ReminderAction = "delivered" | "skip" | "stop";

export interface ReminderFiring {
  reminderId: string;
  action: ReminderAction;
  sessionIds: string[];
}

export interface FireReminderDeps {
  book: ReminderBook;
  store: AsyncStore;
  /** Where a tick's message goes (in the tick's transaction). */
  channels: Pick<ChannelHub, "converse">;
  reminders: () => ReadonlyMap<string, ReminderDefinition>;
  clock: Clock;
  logger: Logger;
}

/**
 * `timer`: the tick due at `dueAt` that the timers saw (the schedule
 * advances, if no one else fired that tick). `manual`: a dispatch by hand
 * (dev route, `handle.dispatchReminder`); a recurring reminder keeps its
 * next tick.
 */
export type ReminderTrigger = { by: "timer"; dueAt: string } | { by: "manual" };

export async function fireReminder(deps: FireReminderDeps, id: string, trigger: ReminderTrigger): Promise<ReminderFiring> {
  const row = await deps.book.get(id);
  if (row.status !== "armed") throw new BdkError("not_ready", `Reminder ${id} is ${row.status}; only armed reminders fire.`);
  const spec = row.spec as unknown as StoredReminder;
  const inline = deps.book.runOf(id);
  /** Whether this firing moved the schedule on (it owns the tick) or found the tick taken; undefined before its first write. */
  let owned: boolean | undefined;
  /** Stores `alongside` (a message) in the transaction that moves the schedule on, the first time only; nothing once the tick is another's. */
  const advancingWith = async <T>(alongside: (tx: AsyncRepositories) => Promise<T>): Promise<{ stored: T } | undefined> => {
    if (owned === false) return undefined;
    const outcome = await deps.store.transaction(async (tx) => {
      if (owned) return { stored: await alongside(tx) };
      const updated = await advance(deps, tx, row, spec, trigger);
      // The claim is the first write: when it misses, nothing was written and nothing is.
      if (updated === "taken") return "taken" as const;
      return { updated, stored: await alongside(tx) };
    });
    if (outcome === "taken") {
      owned = false;
      deps.logger.info(`Reminder ${id}: its tick (${row.nextFireAt}) was fired by another process.`, { reminder: id });
      return undefined;
    }
    owned = true;
    if ("updated" in outcome && outcome.updated) deps.book.changed(outcome.updated);
    return { stored: outcome.stored };
  };

  const sessionIds: string[] = [];
  let undelivered: unknown;
  const followup = async ({ message }: { message: string }) => {
    if (typeof message !== "string" || !message.trim()) throw new BdkError("invalid_request", "followup needs a non-empty message.");
    try {
      const delivered = await advancingWith((tx) => deliver(deps, tx, id, spec, reminderMessage(id, spec, message)));
      if (delivered) sessionIds.push(delivered.stored);
    } catch (error) {
      undelivered ??= error;
      throw error;
    }
  };

  let action: ReminderAction;
  try {
    action = await act(deps, id, spec, inline, followup);
  } catch (error) {
    deps.logger.warn(`Reminder ${id} failed: ${messageOf(error)}`, { reminder: id, purpose: spec.purpose });
    action = "skip";
  }
  if (undelivered === undefined) {
    // A tick that sent nothing (a skip, a failed handler) moves on now.
    await advancingWith(async () => undefined);
  } else if (owned === undefined) {
    deps.logger.warn(`Reminder ${id}: its message could not be stored (${messageOf(undelivered)}); the tick stays due and fires again.`, {
      reminder: id,
    });
  }
  // Another process fired this tick: what this handler asked for is not this firing's to do.
  if (owned === false) return { reminderId: id, action: "skip", sessionIds: [] };
  if (action === "stop") {
    const stopped = await deps.store.reminders.update(id, { status: "done", nextFireAt: null });
    if (stopped) deps.book.changed(stopped);
  }
  return { reminderId: id, action, sessionIds: [...new Set(sessionIds)] };
}

/**
 * Moves the stored schedule on; returns the updated row, null when a manual
 * dispatch finds it deleted meanwhile, `taken` when a timer's tick is no
 * longer armed for it (another process fired it, or it was cancelled).
 */
async function advance(
  deps: FireReminderDeps,
  tx: AsyncRepositories,
  row: ReminderRow,
  spec: StoredReminder,
  trigger: ReminderTrigger,
): Promise<ReminderRow | null | "taken"> {
  const now = deps.clock.now();
  const lastFiredAt = now.toISOString();
  let patch: ReminderPatch;
  if (!isRecurring(spec.timing)) {
    patch = { status: "done", nextFireAt: null, lastFiredAt };
  } else if (trigger.by === "manual") {
    patch = { lastFiredAt };
  } else {
    const next = nextFireAfter(spec.timing, new Date(trigger.dueAt), now);
    patch = next ? { nextFireAt: next.toISOString(), lastFiredAt } : { status: "done", nextFireAt: null, lastFiredAt };
  }
  if (trigger.by === "manual") return (await tx.reminders.update(row.id, patch)) ?? null;
  return (await tx.reminders.claim(row.id, trigger.dueAt, patch)) ?? "taken";
}

async function act(
  deps: FireReminderDeps,
  id: string,
  spec: StoredReminder,
  inline: ReminderRun | undefined,
  followup: (input: { message: string }) => Promise<void>,
): Promise<ReminderAction> {
  if (spec.prompt !== undefined) {
    await followup({ message: spec.prompt });
    return "delivered";
  }
  const run = spec.anonymous ? inline : deps.reminders().get(spec.handler ?? "")?.run;
  if (!run) {
    deps.logger.warn(
      spec.anonymous
        ? `Reminder ${id} has an inline run handler that did not survive a restart: re-arm it.`
        : `Reminder ${id}: no handler "${spec.handler}" in bot/reminders/ any more.`,
      { reminder: id },
    );
    return "skip";
  }
  const result = (await run({ args: spec.args ?? {}, followup })) as { action?: unknown } | undefined;
  const action = result?.action;
  return action === "skip" || action === "stop" ? action : "delivered";
}

/** Sends into the reminder's conversation (in `tx`, the tick's transaction); remembers the session a first tick started. */
async function deliver(deps: FireReminderDeps, tx: AsyncRepositories, id: string, spec: StoredReminder, message: string): Promise<string> {
  const turn = await deps.channels.converse({
    channelId: spec.channelId,
    sessionId: spec.sessionId,
    continuationToken: spec.continuationToken,
    message,
    principal: spec.principal ?? { type: "app", id: `reminder/${spec.purpose ?? id}` },
    admission: "coalesce",
    purpose: spec.purpose,
  });
  if (spec.sessionId !== turn.sessionId) {
    spec.sessionId = turn.sessionId;
    spec.continuationToken ??= turn.continuationToken;
    const current = await tx.reminders.get(id);
    if (current) {
      const stored = { ...(current.spec as object), sessionId: turn.sessionId, continuationToken: spec.continuationToken };
      await tx.reminders.update(id, { spec: stored as JsonValue });
    }
  }
  return turn.sessionId;
}
