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
import type { Store } from "../store/index.ts";
import type { Clock } from "./clock.ts";

export const SCHEDULES_LEASE = "schedules";

/** How long a tick's claim is kept: far longer than two processes can race for one tick. */
export const TICK_CLAIM_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface ScheduleRunnerOptions {
  schedules: () => ReadonlyMap<string, ScheduleDefinition>;
  store: Store;
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

  constructor(private readonly options: ScheduleRunnerOptions) {}

  start(): void {
    this.running = true;
    const now = this.options.clock.now();
    for (const [name, schedule] of this.options.schedules()) {
      const missed = this.record(name).nextFireAt;
      if (missed && Date.parse(missed) <= now.getTime()) this.fireOnce(name, new Date(missed), "catch-up");
      const upcoming = nextFireTime(schedule.cron, now);
      if (upcoming) this.plan(name, Date.parse(upcoming));
    }
    this.arm();
  }

  stop(): void {
    this.running = false;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.options.store.leases.release(SCHEDULES_LEASE, this.options.holder);
  }

  record(name: string): ScheduleRecord {
    return (this.options.store.kv.get(this.options.agentName, scheduleRecordKey(name)) as ScheduleRecord | undefined) ?? {};
  }

  private plan(name: string, at: number): void {
    this.next.set(name, at);
    this.save(name, { ...this.record(name), nextFireAt: new Date(at).toISOString() });
  }

  private arm(): void {
    this.cancelTimer?.();
    if (!this.running || this.next.size === 0) return;
    const soonest = Math.min(...this.next.values());
    this.cancelTimer = this.options.clock.setTimer(new Date(soonest), () => this.tick());
  }

  private tick(): void {
    if (!this.running) return;
    const now = this.options.clock.now();
    const schedules = this.options.schedules();
    for (const [name, at] of [...this.next]) {
      if (at > now.getTime()) continue;
      const schedule = schedules.get(name);
      this.next.delete(name);
      if (!schedule) continue;
      const upcoming = nextFireTime(schedule.cron, new Date(Math.max(now.getTime(), at)));
      if (upcoming) this.plan(name, Date.parse(upcoming));
      this.fireOnce(name, new Date(at), "cron");
    }
    this.arm();
  }

  /** Fires the tick scheduled at `scheduledAt` if this process holds the lease and wins the tick's claim. */
  private fireOnce(name: string, scheduledAt: Date, reason: "cron" | "catch-up"): void {
    const { store, holder, leaseMs, logger, agentName, clock } = this.options;
    if (!store.leases.tryAcquire(SCHEDULES_LEASE, holder, leaseMs ?? 90_000)) return;
    const record = this.record(name);
    const tick = scheduledAt.toISOString();
    if (record.lastFiredAt && record.lastFiredAt >= tick) return;
    if (!store.scheduleTicks.claim(scheduleTickKey(agentName, name), tick, holder)) return;
    store.scheduleTicks.prune(new Date(clock.now().getTime() - TICK_CLAIM_RETENTION_MS).toISOString());
    this.save(name, { ...record, lastFiredAt: tick });
    logger.info(`Schedule ${name} fired (${reason}, ${tick}).`, { schedule: name });
    this.options.fire(name).catch((error) => logger.error(`Schedule ${name} failed: ${messageOf(error)}`, { schedule: name }));
  }

  private save(name: string, record: ScheduleRecord): void {
    this.options.store.kv.put(this.options.agentName, scheduleRecordKey(name), record as unknown as JsonValue);
  }
}
