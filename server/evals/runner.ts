/**
 * Runs eval cases against a target: `maxConcurrency` iterations at a time,
 * each with its timeout, every assertion recorded, the run stored as it
 * goes when a recorder is given.
 */
import type { EvalConfigDefinition } from "../authoring/evals.ts";
import { describeDiagnostic } from "../discover/diagnostics.ts";
import type { LoadedEvalCase, LoadedEvals } from "../load/types.ts";
import { messageOf } from "../protocol/errors.ts";
import { EvalContext } from "./eval-context.ts";
import type { Judge } from "./judge.ts";
import { selectCases, type CaseFilter } from "./select.ts";
import type { EvalRunRecorder } from "./stored-runs.ts";
import type { EvalTarget } from "./target.ts";
import type { CaseResult, EvalRunReport, IterationResult, RunOptionsRecord } from "./types.ts";
import { caseResult, countVerdicts, iterationVerdict, runPassed } from "./verdicts.ts";

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_CONCURRENCY = 4;

/** A problem with the eval setup itself (exit 2): eval files with errors, no evals, an unknown id, a bad limit. */
export class EvalConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EvalConfigError";
  }
}

/** The settings a run uses, and which of them are the runner's defaults rather than the project's. */
export interface EvalSettings {
  maxConcurrency: number;
  timeoutMs: number;
  judge?: { model: string };
  /** Setting names taken from the defaults (`maxConcurrency`, `timeoutMs`, `judge`). */
  defaults: string[];
}

export interface EvalPlan {
  cases: LoadedEvalCase[];
  settings: EvalSettings;
}

/** `evals.config.ts` (checked when loaded) over the defaults, and `--max-concurrency` over both. */
function settingsOf(config: EvalConfigDefinition, maxConcurrencyFlag: number | undefined): EvalSettings {
  const defaults: string[] = [];
  const pick = <T>(name: string, value: T | undefined, fallback: T): T => {
    if (value !== undefined) return value;
    defaults.push(name);
    return fallback;
  };
  const maxConcurrency = maxConcurrencyFlag ?? pick("maxConcurrency", config.maxConcurrency, DEFAULT_MAX_CONCURRENCY);
  const timeoutMs = pick("timeoutMs", config.timeoutMs, DEFAULT_TIMEOUT_MS);
  if (!config.judge) defaults.push("judge");
  return { maxConcurrency, timeoutMs, ...(config.judge ? { judge: config.judge } : {}), defaults };
}

/** One line naming the defaults a run took, e.g. for `bdk eval` without evals.config.ts. */
export function describeDefaults(settings: EvalSettings): string {
  const described: Record<string, string> = {
    maxConcurrency: `maxConcurrency ${settings.maxConcurrency}`,
    timeoutMs: `timeoutMs ${settings.timeoutMs} per case`,
    judge: "no judge model (t.judge assertions are skipped)",
  };
  return settings.defaults.map((name) => described[name]).join(", ");
}

/** Throws `EvalConfigError` listing the errors of `evals/` (a file that failed to load, a bad config field). */
export function assertEvalsLoaded(evals: LoadedEvals | undefined): void {
  const problems = (evals?.diagnostics ?? []).filter((diagnostic) => diagnostic.severity === "error");
  if (problems.length > 0) throw new EvalConfigError(`the evals have errors:\n${problems.map((problem) => `  ${describeDiagnostic(problem)}`).join("\n")}`);
}

/** Checks the setup and picks the cases; throws `EvalConfigError` when there is nothing sound to run. */
export function planRun(evals: LoadedEvals | undefined, filter: CaseFilter & { maxConcurrency?: number }): EvalPlan {
  assertEvalsLoaded(evals);
  if (!evals || evals.cases.length === 0) throw new EvalConfigError("this project has no evals (evals/**/*.eval.ts)");
  const { cases, unknownIds } = selectCases(evals.cases, filter);
  if (unknownIds.length > 0) throw new EvalConfigError(`no eval matches ${unknownIds.map((id) => JSON.stringify(id)).join(", ")}`);
  if (cases.length === 0) throw new EvalConfigError(`no eval has the tag ${(filter.tags ?? []).map((tag) => JSON.stringify(tag)).join(" or ")}`);
  const settings = settingsOf(evals.config ?? {}, filter.maxConcurrency);
  if (!Number.isInteger(settings.maxConcurrency) || settings.maxConcurrency < 1) {
    throw new EvalConfigError(`maxConcurrency must be a positive integer, got ${JSON.stringify(settings.maxConcurrency)}`);
  }
  return { cases, settings };
}

export interface RunEvalsInput {
  agent: string;
  plan: EvalPlan;
  target: EvalTarget;
  judge: Judge;
  options: Omit<RunOptionsRecord, "maxConcurrency">;
  recorder?: EvalRunRecorder;
  onCaseStarted?(evalCase: LoadedEvalCase): void;
  onCaseFinished?(result: CaseResult): void;
  now?: () => Date;
}

export async function runEvals(input: RunEvalsInput): Promise<EvalRunReport> {
  const now = input.now ?? (() => new Date());
  const { plan } = input;
  const startedAt = now();
  const options: RunOptionsRecord = { ...input.options, maxConcurrency: plan.settings.maxConcurrency };

  const jobs = plan.cases.flatMap((evalCase) => Array.from({ length: evalCase.iterations }, (_, iteration) => ({ evalCase, iteration })));
  const finished = new Map<string, IterationResult[]>();
  const results = new Map<string, CaseResult>();
  await runPool(jobs, plan.settings.maxConcurrency, async ({ evalCase, iteration }) => {
    if (iteration === 0) input.onCaseStarted?.(evalCase);
    const result = await runIteration(input, evalCase, iteration);
    const done = finished.get(evalCase.id) ?? [];
    done[iteration] = result;
    finished.set(evalCase.id, done);
    if (done.filter(Boolean).length < evalCase.iterations) return;
    const summary = caseResult(evalCase, done);
    results.set(evalCase.id, summary);
    await input.recorder?.caseFinished(summary);
    input.onCaseFinished?.(summary);
  });

  const cases = plan.cases.map((evalCase) => results.get(evalCase.id)!);
  const counts = countVerdicts(cases);
  const endedAt = now();
  const report: EvalRunReport = {
    version: 1,
    ...(input.recorder ? { runId: input.recorder.runId } : {}),
    agent: input.agent,
    status: "completed",
    passed: runPassed(counts),
    startedAt: startedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    durationMs: endedAt.getTime() - startedAt.getTime(),
    options,
    counts,
    cases,
  };
  await input.recorder?.finish(report);
  return report;
}

async function runIteration(input: RunEvalsInput, evalCase: LoadedEvalCase, iteration: number): Promise<IterationResult> {
  const title = `eval ${evalCase.id}${evalCase.iterations > 1 ? ` #${iteration + 1}` : ""}`;
  const t = new EvalContext({ target: input.target, title, dryRun: input.options.dryRun, judge: input.judge });
  const timeoutMs = evalCase.timeoutMs ?? input.plan.settings.timeoutMs;
  const started = performance.now();
  let error: string | undefined;
  try {
    await withTimeout(
      Promise.resolve()
        .then(() => evalCase.test(t))
        .then(() => t.settle()),
      timeoutMs,
    );
  } catch (thrown) {
    error = messageOf(thrown);
  } finally {
    await t.close();
  }
  return {
    iteration,
    verdict: iterationVerdict(t.assertions, error, input.options.strict),
    durationMs: Math.round(performance.now() - started),
    sessionIds: [...t.sessionIds],
    ...(error !== undefined ? { error } : {}),
    assertions: [...t.assertions],
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Runs `work` over `items` with at most `limit` in flight, in order of `items`. */
async function runPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
