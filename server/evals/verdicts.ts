/** How assertion results become iteration, case and run verdicts. */
import type { LoadedEvalCase } from "../load/types.ts";
import type { AssertionResult, CaseResult, CaseVerdict, IterationResult, RunCounts } from "./types.ts";

/** A failed "error" assertion fails the iteration; a failed soft one only under `strict`. Skipped ones never count. */
export function iterationVerdict(assertions: AssertionResult[], error: string | undefined, strict: boolean): CaseVerdict {
  if (error !== undefined) return "errored";
  const failing = assertions.some((result) => !result.passed && !result.skipped && (strict || result.severity === "error"));
  if (failing) return "failed";
  if (assertions.length > 0 && assertions.every((result) => result.skipped)) return "skipped";
  return "passed";
}

const SEVERITY: Record<CaseVerdict, number> = { errored: 3, failed: 2, passed: 1, skipped: 0 };

/** The worst iteration decides (errored > failed > passed > skipped); its assertions represent the case. */
export function caseResult(evalCase: LoadedEvalCase, iterations: IterationResult[]): CaseResult {
  const deciding = iterations.reduce((worst, next) => (SEVERITY[next.verdict] > SEVERITY[worst.verdict] ? next : worst));
  const passed = iterations.filter((iteration) => iteration.verdict === "passed").length;
  return {
    id: evalCase.id,
    file: evalCase.file,
    ...(evalCase.description ? { description: evalCase.description } : {}),
    tags: evalCase.tags,
    verdict: deciding.verdict,
    passRate: passed / iterations.length,
    durationMs: iterations.reduce((sum, iteration) => sum + iteration.durationMs, 0),
    ...(deciding.sessionIds[0] ? { sessionId: deciding.sessionIds[0] } : {}),
    ...(deciding.error !== undefined ? { error: deciding.error } : {}),
    assertions: deciding.assertions,
    iterations,
  };
}

export function countVerdicts(cases: readonly { verdict: CaseVerdict | "pending" }[]): RunCounts {
  const counts: RunCounts = { total: cases.length, passed: 0, failed: 0, errored: 0, skipped: 0 };
  for (const evalCase of cases) if (evalCase.verdict !== "pending") counts[evalCase.verdict]++;
  return counts;
}

/** Exit 0 material: nothing failed or errored (skipped cases do not count). */
export function runPassed(counts: RunCounts): boolean {
  return counts.failed === 0 && counts.errored === 0;
}
