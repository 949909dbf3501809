/**
 * The durable state of one agent at a state root: `<stateRoot>/bdk.sqlite`
 * plus `<stateRoot>/traces/`. Synchronous by design (better-sqlite3); several
 * processes may open the same state root.
 */
import { closeTraces } from "./trace.ts";
import { createApprovalsRepository, type ApprovalsRepository } from "./approvals.ts";
import { createArtifactsRepository, type ArtifactsRepository } from "./artifacts.ts";
import { openDatabase } from "./db.ts";
import { createEvalRunsRepository, type EvalRunsRepository } from "./eval-runs.ts";
import { createEventsRepository, type EventsRepository } from "./events.ts";
import { createKvRepository, type KvRepository } from "./kv.ts";
import { createLeasesRepository, type LeasesRepository } from "./leases.ts";
import { createLogsRepository, type LogsRepository } from "./logs.ts";
import type { LogLevel } from "./types.ts";
import { createMemoryRepository, type MemoryRepository } from "./memory.ts";
import { createRemindersRepository, type RemindersRepository } from "./reminders.ts";
import { createScheduleTicksRepository, type ScheduleTicksRepository } from "./schedule-ticks.ts";
import { createSessionsRepository, type SessionsRepository } from "./sessions.ts";
import { createTurnsRepository, type TurnsRepository } from "./turns.ts";
import { createIdempotencyRepository, type IdempotencyRepository } from "./idempotency.ts";
import { createToolCallsRepository, type ToolCallsRepository } from "./tool-calls.ts";
import { createModelCallsRepository, type ModelCallsRepository } from "./model-calls.ts";
import { createTransactions, type Transactions } from "./transactions.ts";

export interface StoreOptions {
  /** Source of every stored timestamp (tests inject a fake one). */
  clock?: () => Date;
  /** Folder of the generated SQL migrations; defaults to the one beside this module (bundlers may move it). */
  migrationsFolder?: string;
  /** Log lines kept per level (default LOG_RETENTION). */
  logRetention?: Readonly<Record<LogLevel, number>>;
}

export interface Store extends Transactions {
  readonly stateRoot: string;
  readonly sessions: SessionsRepository;
  readonly events: EventsRepository;
  readonly turns: TurnsRepository;
  readonly approvals: ApprovalsRepository;
  readonly kv: KvRepository;
  readonly artifacts: ArtifactsRepository;
  readonly reminders: RemindersRepository;
  /** Claims of schedule ticks: a schedule fires once per tick. */
  readonly scheduleTicks: ScheduleTicksRepository;
  readonly evalRuns: EvalRunsRepository;
  readonly logs: LogsRepository;
  readonly leases: LeasesRepository;
  readonly memory: MemoryRepository;
  readonly idempotency: IdempotencyRepository;
  /** The side-effect ledger of tool calls. */
  readonly toolCalls: ToolCallsRepository;
  /** What each model step was sent and answered. */
  readonly modelCalls: ModelCallsRepository;
  close(): void;
}

export function openStore(stateRoot: string, options: StoreOptions = {}): Store {
  const clock = options.clock ?? (() => new Date());
  const { db, sqlite } = openDatabase(stateRoot, options.migrationsFolder);
  const tx = createTransactions(sqlite);
  const ctx = { db, sqlite, stateRoot, now: () => clock().toISOString(), tx };
  const logs = createLogsRepository(ctx, options.logRetention);
  const leases = createLeasesRepository(ctx);
  const events = createEventsRepository(ctx, (message) => logs.append("warn", message));
  // The trace files a crash can have cut short are those of the last events stored: bounded work, whatever the store's size.
  events.repairRecentTraces();
  return {
    stateRoot,
    sessions: createSessionsRepository(ctx),
    events,
    turns: createTurnsRepository(ctx),
    approvals: createApprovalsRepository(ctx),
    kv: createKvRepository(ctx),
    artifacts: createArtifactsRepository(ctx),
    reminders: createRemindersRepository(ctx),
    scheduleTicks: createScheduleTicksRepository(ctx),
    evalRuns: createEvalRunsRepository(ctx),
    logs,
    leases,
    memory: createMemoryRepository(ctx),
    idempotency: createIdempotencyRepository(ctx),
    toolCalls: createToolCallsRepository(ctx),
    modelCalls: createModelCallsRepository(ctx),
    transaction: tx.transaction,
    transactionAsync: tx.transactionAsync,
    whenFree: tx.whenFree,
    afterCommit: tx.afterCommit,
    onRollback: tx.onRollback,
    close() {
      leases.close();
      closeTraces();
      if (sqlite.open) sqlite.close();
    },
  };
}
