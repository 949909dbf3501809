/**
 * One eval run from start to stored report, shared by `bdk eval` (in-process
 * or `--url`) and `POST /v1/evals/runs` (in the background of `bdk serve`).
 */
import type { LoadedEvalCase, LoadedEvals } from "../load/types.ts";
import type { AsyncStore } from "../store/async-store.ts";
import { createJudge } from "./judge.ts";
import { planRun, runEvals, type EvalPlan } from "./runner.ts";
import type { CaseFilter } from "./select.ts";
import { EvalRunRecorder } from "./stored-runs.ts";
import type { EvalTarget } from "./target.ts";
import type { CaseResult, EvalRunReport, RunOptionsRecord } from "./types.ts";

export interface StartRunInput {
  agent: string;
  /** A label for the stored run. */
  name?: string;
  evals: LoadedEvals | undefined;
  filter: CaseFilter & { maxConcurrency?: number };
  target: EvalTarget;
  /** Where the run is recorded; without one the run is only reported. */
  store?: AsyncStore;
  /** Environment for the judge model's credentials. */
  env: Record<string, string | undefined>;
  options: Omit<RunOptionsRecord, "maxConcurrency" | "ids" | "tags">;
  onCaseStarted?(evalCase: LoadedEvalCase): void;
  onCaseFinished?(result: CaseResult): void;
}

export interface StartedRun {
  runId?: string;
  plan: EvalPlan;
  done: Promise<EvalRunReport>;
}

/** Plans (rejecting with `EvalConfigError`), records the run, and starts it; resolves once the run is stored. */
export async function startRun(input: StartRunInput): Promise<StartedRun> {
  const plan = planRun(input.evals, input.filter);
  const options: RunOptionsRecord = {
    ids: input.filter.ids ?? [],
    tags: input.filter.tags ?? [],
    maxConcurrency: plan.settings.maxConcurrency,
    ...input.options,
  };
  const recorder = input.store ? await EvalRunRecorder.start(input.store, { agent: input.agent, name: input.name, options, cases: plan.cases }) : undefined;
  const done = runEvals({
    agent: input.agent,
    plan,
    target: input.target,
    judge: createJudge(plan.settings.judge, input.env),
    options,
    recorder,
    onCaseStarted: input.onCaseStarted,
    onCaseFinished: input.onCaseFinished,
  }).catch(async (error: unknown) => {
    // A closed store (the server is shutting down) leaves the run "running"; the error below says why.
    await recorder?.fail(new Date().toISOString()).catch(() => undefined);
    throw error;
  });
  return { runId: recorder?.runId, plan, done };
}
