/**
 * Eval runs in the state database: `eval_runs.summary` holds the run's
 * options and counts, `eval_cases.assertions` holds each case's full result
 * (its assertions, iterations, error). Reading them back gives the same
 * report the CLI prints with `--json`.
 */
import type { LoadedEvalCase } from "../load/types.ts";
import type { AsyncStore } from "../store/async-store.ts";
import type { EvalRunRow, JsonValue } from "../store/types.ts";
import type { CaseResult, EvalRunReport, RunCounts, RunOptionsRecord } from "./types.ts";
import { countVerdicts, runPassed } from "./verdicts.ts";

/** A case of a run that has not finished yet. */
export interface PendingCase {
  id: string;
  file: string;
  description?: string;
  tags: string[];
  verdict: "pending";
}

export type StoredCase = CaseResult | PendingCase;

export type StoredRun = Omit<EvalRunReport, "cases"> & { cases: StoredCase[] };

interface RunSummaryRecord {
  version: 1;
  agent: string;
  name?: string;
  options: RunOptionsRecord;
  counts: RunCounts;
  passed: boolean;
  durationMs?: number;
}

const toJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as JsonValue;

/** Writes one run as it progresses: pending cases first, each result as it lands, then the end. */
export class EvalRunRecorder {
  private constructor(
    private readonly store: AsyncStore,
    readonly runId: string,
    private readonly summary: RunSummaryRecord,
  ) {}

  static async start(
    store: AsyncStore,
    input: { agent: string; name?: string; options: RunOptionsRecord; cases: readonly LoadedEvalCase[] },
  ): Promise<EvalRunRecorder> {
    const counts = countVerdicts(input.cases.map(() => ({ verdict: "pending" as const })));
    const summary: RunSummaryRecord = {
      version: 1,
      agent: input.agent,
      ...(input.name ? { name: input.name } : {}),
      options: input.options,
      counts,
      passed: false,
    };
    // The run and its pending cases together: a reader never sees a run without its cases.
    const runId = await store.transaction(async (tx) => {
      const row = await tx.evalRuns.create({ summary: toJson(summary) });
      for (const evalCase of input.cases) {
        const pending: PendingCase = { id: evalCase.id, file: evalCase.file, description: evalCase.description, tags: evalCase.tags, verdict: "pending" };
        await tx.evalRuns.putCase(row.id, { caseId: evalCase.id, verdict: "pending", assertions: toJson(pending) });
      }
      return row.id;
    });
    return new EvalRunRecorder(store, runId, summary);
  }

  async caseFinished(result: CaseResult): Promise<void> {
    await this.store.evalRuns.putCase(this.runId, {
      caseId: result.id,
      verdict: result.verdict,
      assertions: toJson(result),
      sessionId: result.sessionId ?? null,
    });
  }

  async finish(report: Pick<EvalRunReport, "counts" | "passed" | "durationMs" | "endedAt">): Promise<void> {
    const summary: RunSummaryRecord = { ...this.summary, counts: report.counts, passed: report.passed, durationMs: report.durationMs };
    await this.store.evalRuns.update(this.runId, { status: "completed", endedAt: report.endedAt, summary: toJson(summary) });
  }

  /** The run stopped before its end (the runner threw, the server shut down). */
  async fail(endedAt: string): Promise<void> {
    await this.store.evalRuns.update(this.runId, { status: "failed", endedAt });
  }
}

function runHeader(row: EvalRunRow): Omit<StoredRun, "cases"> {
  const summary = (row.summary ?? {}) as Partial<RunSummaryRecord>;
  const counts = summary.counts ?? { total: 0, passed: 0, failed: 0, errored: 0, skipped: 0 };
  return {
    version: 1,
    runId: row.id,
    agent: summary.agent ?? "",
    ...(summary.name ? { name: summary.name } : {}),
    status: row.status,
    passed: row.status === "completed" && runPassed(counts),
    startedAt: row.startedAt,
    ...(row.endedAt ? { endedAt: row.endedAt } : {}),
    ...(summary.durationMs !== undefined ? { durationMs: summary.durationMs } : {}),
    options: summary.options ?? { ids: [], tags: [], maxConcurrency: 0, strict: false, dryRun: true, target: "local" },
    counts,
  };
}

/** Runs newest first, without their cases. */
export async function listStoredRuns(store: AsyncStore, limit = 50): Promise<Omit<StoredRun, "cases">[]> {
  return (await store.evalRuns.list({ limit })).map(runHeader);
}

export async function readStoredRun(store: AsyncStore, runId: string): Promise<StoredRun | undefined> {
  const row = await store.evalRuns.get(runId);
  if (!row) return undefined;
  const cases = (await store.evalRuns.listCases(runId)).map((caseRow): StoredCase => {
    const detail = (caseRow.assertions ?? {}) as Partial<StoredCase>;
    return { ...detail, id: caseRow.caseId, verdict: caseRow.verdict } as StoredCase;
  });
  const header = runHeader(row);
  // While a run is going, its counts come from the cases finished so far.
  return { ...header, counts: row.status === "running" ? countVerdicts(cases) : header.counts, cases };
}
