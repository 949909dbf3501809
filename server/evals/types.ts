/**
 * The results an eval run produces. The CLI's `--json` report, the stored
 * run and `GET /v1/evals/runs/:id` all use these shapes (docs/evals.md).
 */

export type CaseVerdict = "passed" | "failed" | "errored" | "skipped";

/** One recorded assertion; `.soft()` turns severity into "warning". */
export interface AssertionResult {
  name: string;
  passed: boolean;
  /** Not evaluated (e.g. no judge model): never fails a case. `passed` is false. */
  skipped?: boolean;
  /** 0..1, for graded assertions (`t.judge`). */
  score?: number;
  severity: "error" | "warning";
  message: string;
}

/** One run of a case's test (a case runs `iterations` times). */
export interface IterationResult {
  iteration: number;
  verdict: CaseVerdict;
  durationMs: number;
  sessionIds: string[];
  /** Why the test errored (a throw or a timeout). */
  error?: string;
  assertions: AssertionResult[];
}

export interface CaseResult {
  id: string;
  file: string;
  description?: string;
  tags: string[];
  /** Worst iteration: errored > failed > passed; skipped only when every iteration was. */
  verdict: CaseVerdict;
  /** Passed iterations / iterations. */
  passRate: number;
  durationMs: number;
  /** The session of the iteration that decided the verdict, for the playground link. */
  sessionId?: string;
  error?: string;
  /** The assertions of the iteration that decided the verdict. */
  assertions: AssertionResult[];
  iterations: IterationResult[];
}

export interface RunCounts {
  total: number;
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
}

/** What a run was asked to do; recorded with it. */
export interface RunOptionsRecord {
  ids: string[];
  tags: string[];
  maxConcurrency: number;
  strict: boolean;
  dryRun: boolean;
  model?: string;
  /** "local" (in-process), "url" (a remote server) or "http" (started with POST /v1/evals/runs). */
  target: "local" | "url" | "http";
}

export interface EvalRunReport {
  version: 1;
  runId?: string;
  agent: string;
  /** A label given when the run was started ("after the prompt fix"). */
  name?: string;
  status: "running" | "completed" | "failed" | "cancelled";
  /** Every non-skipped case passed. */
  passed: boolean;
  startedAt: string;
  endedAt?: string;
  durationMs?: number;
  options: RunOptionsRecord;
  counts: RunCounts;
  cases: CaseResult[];
}
