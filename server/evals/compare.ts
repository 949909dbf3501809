/**
 * Case-by-case comparison of two runs (the hillclimbing loop: change one
 * lever, rerun, compare). `a` is the baseline, `b` the new run.
 */
import type { StoredCase, StoredRun } from "./stored-runs.ts";
import type { AssertionResult } from "./types.ts";

export type Verdict = StoredCase["verdict"];

/** One side of an assertion: how it came out in that run. */
export type AssertionOutcome = Pick<AssertionResult, "passed" | "severity" | "message"> & Partial<Pick<AssertionResult, "skipped" | "score">>;

/** One assertion in both runs, paired by name (and by order among assertions of one name); a side is absent when its run did not record it. */
export interface AssertionComparison {
  name: string;
  before?: AssertionOutcome;
  after?: AssertionOutcome;
  /** Passed on one side and failed on the other (skipped counts as neither). */
  flipped: boolean;
}

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
  beforeDurationMs?: number;
  afterDurationMs?: number;
  /** Why the case errored in that run. */
  beforeError?: string;
  afterError?: string;
  /** Assertion by assertion, over the iteration that decided each verdict. */
  assertions: AssertionComparison[];
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

function resultOf(evalCase: StoredCase | undefined) {
  return evalCase && evalCase.verdict !== "pending" ? evalCase : undefined;
}

const outcomeOf = ({ passed, severity, message, skipped, score }: AssertionResult): AssertionOutcome => ({
  passed,
  severity,
  message,
  ...(skipped ? { skipped } : {}),
  ...(score !== undefined ? { score } : {}),
});

/** Assertions keyed by name and occurrence (`t.check` may be called twice with one name). */
function keyedAssertions(evalCase: StoredCase | undefined): Map<string, AssertionResult> {
  const seen = new Map<string, number>();
  const keyed = new Map<string, AssertionResult>();
  for (const assertion of resultOf(evalCase)?.assertions ?? []) {
    const occurrence = seen.get(assertion.name) ?? 0;
    seen.set(assertion.name, occurrence + 1);
    keyed.set(`${occurrence}\u0000${assertion.name}`, assertion);
  }
  return keyed;
}

/** The before run's assertions in their order, then those only the after run has. */
export function compareAssertions(before: StoredCase | undefined, after: StoredCase | undefined): AssertionComparison[] {
  const was = keyedAssertions(before);
  const now = keyedAssertions(after);
  const keys = [...new Set([...was.keys(), ...now.keys()])];
  return keys.map((key) => {
    const a = was.get(key);
    const b = now.get(key);
    const decided = (outcome: AssertionResult | undefined) => (outcome && !outcome.skipped ? outcome.passed : undefined);
    const [x, y] = [decided(a), decided(b)];
    return {
      name: (a ?? b)!.name,
      ...(a ? { before: outcomeOf(a) } : {}),
      ...(b ? { after: outcomeOf(b) } : {}),
      flipped: x !== undefined && y !== undefined && x !== y,
    };
  });
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
    const [ranBefore, ranAfter] = [resultOf(was), resultOf(now)];
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
      ...(ranBefore ? { beforeDurationMs: ranBefore.durationMs } : {}),
      ...(ranAfter ? { afterDurationMs: ranAfter.durationMs } : {}),
      ...(ranBefore?.error ? { beforeError: ranBefore.error } : {}),
      ...(ranAfter?.error ? { afterError: ranAfter.error } : {}),
      assertions: compareAssertions(was, now),
    };
  });
  return { before: a.runId ?? "", after: b.runId ?? "", cases, summary };
}
