/**
 * What runs an agent without an inbound `/v1/session` call: its channels,
 * its schedules and its reminders, over an `AsyncStore` (SQLite or
 * Postgres: of the nodes on one store, each schedule tick and each reminder
 * tick fires once). `openAgent` creates it; `serve` starts the cron cadence
 * and reminder timers (never under `--dev`, where the dev routes and the
 * serve handle dispatch by hand). On Postgres its store must be the
 * runtime's own: a tick's message is a savepoint of the tick's transaction.
 */
import type { ReminderInput, ReminderRecord } from "../authoring/types.ts";
import { ChannelHub, type ChannelHubOptions } from "../channels/channel-hub.ts";
import { nextFireTime } from "../discover/cron.ts";
import type { Principal } from "../protocol/events.ts";
import { fireReminder, type ReminderFiring, type ReminderTrigger } from "../reminders/fire-reminder.ts";
import type { ReminderBook } from "../reminders/reminder-book.ts";
import { reminderRecord, type StoredReminder } from "../reminders/reminder-spec.ts";
import { ReminderTimers } from "../reminders/reminder-timers.ts";
import { dispatchSchedule, type ScheduleDispatch } from "../schedules/dispatch-schedule.ts";
import { ScheduleRunner, scheduleRecordKey, type ScheduleRecord } from "../schedules/schedule-runner.ts";
import { envMilliseconds } from "./env-milliseconds.ts";

/** What the channel hub takes, plus the agent's reminders. */
export interface AutomationOptions extends Omit<ChannelHubOptions, "slackStreamIntervalMs"> {
  reminders: ReminderBook;
}

export interface ScheduleInfo {
  name: string;
  cron: string;
  kind: "markdown" | "handler";
  nextFireAt?: string;
  lastFiredAt?: string;
}

export class AgentAutomation {
  readonly channels: ChannelHub;
  readonly reminders: ReminderBook;
  private scheduleRunner?: ScheduleRunner;
  private reminderTimers?: ReminderTimers;
  /** Shorter than the defaults only in tests that wait out a killed node's reminders lease; read here so a bad value stops the start. */
  private readonly reminderTiming: { leaseMs?: number; resyncMs?: number };

  constructor(private readonly options: AutomationOptions) {
    this.reminders = options.reminders;
    this.reminderTiming = {
      leaseMs: envMilliseconds(options.env, "BDK_REMINDERS_LEASE_MS", 300),
      resyncMs: envMilliseconds(options.env, "BDK_REMINDERS_RESYNC_MS", 100),
    };
    this.channels = new ChannelHub(options);
  }

  get dev(): boolean {
    return this.options.dev;
  }

  /** Starts the cron cadence (`schedules`) and the reminder timers (`timers`); warns about reminders a restart lost. */
  async start(what: { schedules: boolean; timers: boolean }): Promise<void> {
    const { runtime, store, clock, logger } = this.options;
    // This process as a holder of the schedule and reminder leases (on SQLite they pass on as soon as it dies).
    const holder = await store.leases.processHolder();
    for (const row of await this.reminders.armed()) {
      if ((row.spec as unknown as StoredReminder).anonymous && !this.reminders.runOf(row.id)) {
        logger.warn(
          `Reminder ${row.id} used an inline run handler, which does not survive a restart: re-arm it, or use a named handler in bot/reminders/.`,
          { reminder: row.id },
        );
      }
    }
    if (what.schedules && !this.scheduleRunner && runtime.agent.schedules.size > 0) {
      this.scheduleRunner = new ScheduleRunner({
        schedules: () => runtime.agent.schedules,
        store,
        agentName: runtime.agent.name,
        clock,
        logger,
        holder,
        fire: (name) => this.dispatchSchedule(name),
      });
      await this.scheduleRunner.start();
    }
    if (what.timers && !this.reminderTimers) {
      this.reminderTimers = new ReminderTimers({
        book: this.reminders,
        store,
        clock,
        logger,
        holder,
        fire: (id, dueAt) => this.fire(id, { by: "timer", dueAt }),
        ...this.reminderTiming,
      });
      const armed = await this.reminderTimers.start();
      if (armed > 0) logger.info(`${armed} reminder(s) armed.`);
    }
  }

  dispatchSchedule(name: string): Promise<ScheduleDispatch> {
    return dispatchSchedule({ runtime: this.options.runtime, channels: this.channels }, name);
  }

  async listSchedules(): Promise<ScheduleInfo[]> {
    const { runtime, store, clock } = this.options;
    const schedules = [...runtime.agent.schedules];
    const records = await Promise.all(schedules.map(([name]) => store.kv.get(runtime.agent.name, scheduleRecordKey(name))));
    return schedules.map(([name, schedule], i) => {
      const record = (records[i] as ScheduleRecord | undefined) ?? {};
      return {
        name,
        cron: schedule.cron,
        kind: typeof schedule.run === "function" ? "handler" : "markdown",
        nextFireAt: nextFireTime(schedule.cron, clock.now()),
        lastFiredAt: record.lastFiredAt,
      };
    });
  }

  async createReminder(input: ReminderInput, principal?: Principal): Promise<ReminderRecord> {
    return reminderRecord(await this.reminders.createRow(input, principal));
  }

  async listReminders(): Promise<ReminderRecord[]> {
    return (await this.reminders.armed()).map(reminderRecord);
  }

  /** Resolves once no schedule tick, reminder firing or channel delivery started here is in flight. */
  async idle(): Promise<void> {
    await Promise.all([this.scheduleRunner?.idle(), this.reminderTimers?.idle(), this.channels.delivery.settled()]);
  }

  /** Fires one reminder now (dev route, `handle.dispatchReminder`). */
  dispatchReminder(id: string): Promise<ReminderFiring> {
    return this.fire(id, { by: "manual" });
  }

  async close(): Promise<void> {
    await Promise.all([this.scheduleRunner?.stop(), this.reminderTimers?.stop()]);
    this.scheduleRunner = undefined;
    this.reminderTimers = undefined;
    await this.channels.close();
  }

  private fire(id: string, trigger: ReminderTrigger): Promise<ReminderFiring> {
    const { runtime, clock, logger } = this.options;
    return fireReminder(
      { book: this.reminders, store: this.options.store, channels: this.channels, reminders: () => runtime.agent.reminders, clock, logger },
      id,
      trigger,
    );
  }
}
