import { describe, expect, it } from "vitest";
import { compareRuns } from "./compare.ts";
import type { StoredRun } from "./stored-runs.ts";
import type { AssertionResult, CaseResult } from "./types.ts";

const check = (name: string, passed: boolean, extra: Partial<AssertionResult> = {}): AssertionResult => ({
  name,
  passed,
  severity: "error",
  message: passed ? "ok" : `${name} failed`,
  ...extra,
});

const result = (id: string, assertions: AssertionResult[], extra: Partial<CaseResult> = {}): CaseResult => ({
  id,
  file: `evals/${id}.eval.ts`,
  tags: [],
  verdict: assertions.every((assertion) => assertion.passed || assertion.skipped) ? "passed" : "failed",
  passRate: 1,
  durationMs: 100,
  sessionId: `ses_${id}`,
  assertions,
  iterations: [],
  ...extra,
});

const run = (runId: string, cases: StoredRun["cases"]): StoredRun => ({
  version: 1,
  runId,
  agent: "a",
  status: "completed",
  passed: false,
  startedAt: "2026-01-01T00:00:00.000Z",
  options: { ids: [], tags: [], maxConcurrency: 1, strict: false, dryRun: true, target: "local" },
  counts: { total: cases.length, passed: 0, failed: 0, errored: 0, skipped: 0 },
  cases,
});

describe("compareRuns, case by case", () => {
  it("pairs assertions by name and order, marks the ones that flipped, and keeps durations and errors", () => {
    const before = run("run_a", [
      result("refund", [check("replied", true), check("called lookup_order", true), check("called lookup_order", true), check("judge", false, { skipped: true })]),
    ]);
    const after = run("run_b", [
      result("refund", [check("replied", true), check("called lookup_order", true), check("called lookup_order", false), check("mentions refund", false)], {
        durationMs: 250,
        error: "timed out",
      }),
    ]);
    const [refund] = compareRuns(before, after).cases;
    expect(refund).toMatchObject({ change: "regressed", beforeDurationMs: 100, afterDurationMs: 250, afterError: "timed out" });
    expect(refund.assertions.map(({ name, before: was, after: now, flipped }) => [name, was?.passed, now?.passed, flipped])).toEqual([
      ["replied", true, true, false],
      ["called lookup_order", true, true, false],
      ["called lookup_order", true, false, true],
      ["judge", false, undefined, false],
      ["mentions refund", undefined, false, false],
    ]);
    expect(refund.assertions[3].before).toEqual({ passed: false, severity: "error", message: "judge failed", skipped: true });
  });

  it("gives a case the newer run did not select no after side, and labels it not_run while the project has it", () => {
    const before = run("run_a", [result("refund", [check("replied", true)])]);
    const after = run("run_b", []);
    const [refund] = compareRuns(before, after, ["refund"]).cases;
    expect(refund).toMatchObject({ change: "not_run", beforeSessionId: "ses_refund", beforeDurationMs: 100 });
    expect(refund.after).toBeUndefined();
    expect(refund.assertions).toEqual([{ name: "replied", before: { passed: true, severity: "error", message: "ok" }, flipped: false }]);
  });
});
