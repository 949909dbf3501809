/**
 * Case-by-case comparison of two runs (the hillclimbing loop: change one
 * lever, rerun, compare). `a` is the baseline, `b` the new run.
 */
import type { StoredCase, StoredRun } from "./stored-runs.ts";

export type Verdict = StoredCase["verdict"];

export interface CaseComparison {
  id: string;
  /** Absent when the case was not in that run. */
  before?: Verdict;
  after?: Verdict;
  beforePassRate?: number;
  afterPassRate?: number;
  changed: boolean;
  /**
   * `improved`: now passes; `regressed`: passed before, not now; `not_run`:
   * the case still exists but the new run did not select it; `removed`: it
   * is in neither the new run nor the project any more.
   */
  change: "improved" | "regressed" | "changed" | "added" | "removed" | "not_run" | "unchanged";
  /** The sessions behind each verdict, to open both traces side by side. */
  beforeSessionId?: string;
  afterSessionId?: string;
}

export interface RunComparison {
  before: string;
  after: string;
  cases: CaseComparison[];
  summary: Record<CaseComparison["change"], number>;
}

function passRateOf(evalCase: StoredCase | undefined): number | undefined {
  return evalCase && "passRate" in evalCase ? evalCase.passRate : undefined;
}

function sessionOf(evalCase: StoredCase | undefined): string | undefined {
  return evalCase && "sessionId" in evalCase ? evalCase.sessionId : undefined;
}

function changeOf(before: StoredCase | undefined, after: StoredCase | undefined, exists: boolean): CaseComparison["change"] {
  if (!before) return "added";
  if (!after) return exists ? "not_run" : "removed";
  if (before.verdict === after.verdict && passRateOf(before) === passRateOf(after)) return "unchanged";
  if (after.verdict === "passed" && before.verdict !== "passed") return "improved";
  if (before.verdict === "passed" && after.verdict !== "passed") return "regressed";
  return "changed";
}

/** `currentIds`: the cases the project has now (a case missing from `b` is `not_run` if still there); omitted, a missing case counts as `removed`. */
export function compareRuns(a: StoredRun, b: StoredRun, currentIds?: readonly string[]): RunComparison {
  const current = currentIds && new Set(currentIds);
  const before = new Map(a.cases.map((evalCase) => [evalCase.id, evalCase]));
  const after = new Map(b.cases.map((evalCase) => [evalCase.id, evalCase]));
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort();
  const summary: RunComparison["summary"] = { improved: 0, regressed: 0, changed: 0, added: 0, removed: 0, not_run: 0, unchanged: 0 };
  const cases = ids.map((id): CaseComparison => {
    const was = before.get(id);
    const now = after.get(id);
    const change = changeOf(was, now, current?.has(id) ?? false);
    summary[change]++;
    const beforeSessionId = sessionOf(was);
    const afterSessionId = sessionOf(now);
    return {
      id,
      ...(was ? { before: was.verdict } : {}),
      ...(now ? { after: now.verdict } : {}),
      ...(passRateOf(was) !== undefined ? { beforePassRate: passRateOf(was) } : {}),
      ...(passRateOf(now) !== undefined ? { afterPassRate: passRateOf(now) } : {}),
      changed: change !== "unchanged",
      change,
      ...(beforeSessionId ? { beforeSessionId } : {}),
      ...(afterSessionId ? { afterSessionId } : {}),
    };
  });
  return { before: a.runId ?? "", after: b.runId ?? "", cases, summary };
}
