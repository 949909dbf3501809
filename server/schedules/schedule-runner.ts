/**
 * The cron cadence of `bdk serve`. Each schedule's next firing is computed
 * with croner (UTC) from an injectable clock. Of the processes sharing a
 * store, the one that takes the `schedules` lease fires, and it claims each
 * tick in the store first (`scheduleTicks.claim`): the lease keeps the work
 * on one process in the common case, the claim makes a tick fire once even
 * while two holders overlap (a lease passing on at its expiry). The firing is
 * also recorded per schedule (`lastFiredAt`), so an older tick never fires
 * after a newer one. A firing missed while no process ran is caught up once
 * at start, not replayed for each missed tick.
 */
import type { ScheduleDefinition } from "../authoring/schedules.ts";
import type { JsonValue } from "../authoring/types.ts";
import { nextFireTime } from "../discover/cron.ts";
import type { Logger } from "../host/logger.ts";
import { messageOf } from "../protocol/errors.ts";
import type { AsyncStore } from "../store/async-store.ts";
import type { Clock } from "./clock.ts";
import { InFlight, STOP_GRACE_MS } from "./in-flight.ts";
import { releaseOnStop } from "./release-on-stop.ts";

export const SCHEDULES_LEASE = "schedules";

/** How long a tick's claim is kept: far longer than two processes can race for one tick. */
export const TICK_CLAIM_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface ScheduleRunnerOptions {
  schedules: () => ReadonlyMap<string, ScheduleDefinition>;
  store: AsyncStore;
  /** kv namespace (the agent name). */
  agentName: string;
  clock: Clock;
  logger: Logger;
  holder: string;
  fire(name: string): Promise<unknown>;
  leaseMs?: number;
}

/** What the store keeps per schedule. */
export interface ScheduleRecord {
  lastFiredAt?: string;
  nextFireAt?: string;
}

export function scheduleRecordKey(name: string): string {
  return `bdk:schedule:${name}`;
}

/** A schedule's key among the tick claims of every agent on the store. */
export function scheduleTickKey(agentName: string, name: string): string {
  return `${agentName}/${name}`;
}

export class ScheduleRunner {
  private readonly next = new Map<string, number>();
  private cancelTimer?: () => void;
  private running = false;
  /** Ticks and the firings they started, not yet settled. */
  private readonly inFlight = new InFlight();

  constructor(private readonly options: ScheduleRunnerOptions) {}

  /** Plans every schedule's next tick and catches up a firing missed while no process ran. */
  async start(): Promise<void> {
    this.running = true;
    const now = this.options.clock.now();
    for (const [name, schedule] of this.options.schedules()) {
      const missed = (await this.record(name)).nextFireAt;
      if (missed && Date.parse(missed) <= now.getTime()) await this.fireOnce(name, new Date(missed), "catch-up");
      const upcoming = nextFireTime(schedule.cron, now);
      if (upcoming) await this.plan(name, Date.parse(upcoming));
    }
    this.arm();
  }

  /** Stops the cadence, lets the work in flight end (a few seconds at most), and hands the lease on. */
  async stop(): Promise<void> {
    this.running = false;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    await this.inFlight.idle(STOP_GRACE_MS);
    await releaseOnStop(this.options.store, SCHEDULES_LEASE, this.options.holder, this.options.logger);
  }

  /** Resolves once no tick or firing is in flight. */
  idle(): Promise<void> {
    return this.inFlight.idle();
  }

  async record(name: string): Promise<ScheduleRecord> {
    return ((await this.options.store.kv.get(this.options.agentName, scheduleRecordKey(name))) as ScheduleRecord | undefined) ?? {};
  }

  private async plan(name: string, at: number): Promise<void> {
    this.next.set(name, at);
    await this.save(name, { ...(await this.record(name)), nextFireAt: new Date(at).toISOString() });
  }

  private arm(): void {
    this.cancelTimer?.();
    if (!this.running || this.next.size === 0) return;
    const soonest = Math.min(...this.next.values());
    this.cancelTimer = this.options.clock.setTimer(new Date(soonest), () =>
      this.inFlight.add(this.tick(), (error) => this.options.logger.error(`Schedules: a tick failed: ${messageOf(error)}`)),
    );
  }

  private async tick(): Promise<void> {
    if (!this.running) return;
    const now = this.options.clock.now();
    const schedules = this.options.schedules();
    // The due ticks leave `next` before any await: the timer armed below never sees them again.
    const due = [...this.next].filter(([, at]) => at <= now.getTime());
    for (const [name, at] of due) {
      const schedule = schedules.get(name);
      this.next.delete(name);
      if (!schedule) continue;
      const upcoming = nextFireTime(schedule.cron, new Date(Math.max(now.getTime(), at)));
      if (upcoming) this.next.set(name, Date.parse(upcoming));
    }
    this.arm();
    for (const [name, at] of due) {
      const upcoming = this.next.get(name);
      if (upcoming !== undefined) await this.plan(name, upcoming);
      await this.fireOnce(name, new Date(at), "cron");
    }
  }

  /** Fires the tick scheduled at `scheduledAt` if this process holds the lease and wins the tick's claim. */
  private async fireOnce(name: string, scheduledAt: Date, reason: "cron" | "catch-up"): Promise<void> {
    const { store, holder, leaseMs, logger, agentName, clock } = this.options;
    if (!(await store.leases.tryAcquire(SCHEDULES_LEASE, holder, leaseMs ?? 90_000))) return;
    const record = await this.record(name);
    const tick = scheduledAt.toISOString();
    if (record.lastFiredAt && record.lastFiredAt >= tick) return;
    if (!(await store.scheduleTicks.claim(scheduleTickKey(agentName, name), tick, holder))) return;
    await store.scheduleTicks.prune(new Date(clock.now().getTime() - TICK_CLAIM_RETENTION_MS).toISOString());
    await this.save(name, { ...record, lastFiredAt: tick });
    logger.info(`Schedule ${name} fired (${reason}, ${tick}).`, { schedule: name });
    this.inFlight.add(this.options.fire(name), (error) => logger.error(`Schedule ${name} failed: ${messageOf(error)}`, { schedule: name }));
  }

  private async save(name: string, record: ScheduleRecord): Promise<void> {
    await this.options.store.kv.put(this.options.agentName, scheduleRecordKey(name), record as unknown as JsonValue);
  }
}
