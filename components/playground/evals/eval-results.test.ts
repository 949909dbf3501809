import { describe, expect, it } from "vitest";
import { compareLocally, normalizeRun, runBadgeStatus, runSummaryText, verdictOf } from "./eval-results.ts";

describe("eval results", () => {
  it("normalises the server's run detail (runId, cases with id)", () => {
    const run = normalizeRun({
      run: { id: undefined as unknown as string, runId: "evr_1", status: "completed", passed: false, counts: { total: 2, passed: 1, failed: 1, errored: 0, skipped: 0 } },
      cases: [{ id: "readiness", verdict: "failed", assertions: [{ name: "calledTool", passed: false, severity: "error", message: "never called" }] } as never],
    })!;
    expect(run.id).toBe("evr_1");
    expect(run.cases?.[0]).toMatchObject({ caseId: "readiness", verdict: "failed", assertions: [{ name: "calledTool", passed: false }] });
    expect(runSummaryText(run)).toBe("1/2 passed · 1 failing");
    expect(runBadgeStatus(run)).toBe("failed");
  });

  it("maps verdict words", () => {
    expect(["passed", "failed", "errored", "pending", "skipped", "?"].map((v) => verdictOf(v))).toEqual(["pass", "fail", "error", "running", "skipped", "unknown"]);
  });

  it("compares two runs case by case", () => {
    const before = { id: "a", cases: [{ caseId: "x", verdict: "failed" }, { caseId: "y", verdict: "passed" }] };
    const after = { id: "b", cases: [{ caseId: "x", verdict: "passed" }, { caseId: "z", verdict: "passed" }] };
    expect(compareLocally(before, after).cases.map((c) => `${c.id}:${c.change}`)).toEqual(["x:improved", "y:removed", "z:added"]);
  });
});
