import { afterEach, describe, expect, it } from "vitest";
import { manualClock, tempRoots } from "./testing/temp-root.ts";

const roots = tempRoots();
afterEach(() => roots.cleanup());

describe("store.evalRuns", () => {
  it("records runs with per-case verdicts and removes them together", () => {
    const time = manualClock();
    const store = roots.open(roots.root(), time.clock);
    const older = store.evalRuns.create();
    time.advance(1000);
    const run = store.evalRuns.create({ summary: { ids: ["greeting"] } });
    expect(run).toMatchObject({ id: expect.stringMatching(/^evr_/), status: "running", endedAt: null });

    store.evalRuns.putCase(run.id, { caseId: "greeting/0001", verdict: "pending" });
    store.evalRuns.putCase(run.id, { caseId: "greeting/0000", verdict: "passed", sessionId: "ses_1" });
    const assertions = [{ name: "includes", passed: false, severity: "error", message: "missing 'hi'" }];
    store.evalRuns.putCase(run.id, { caseId: "greeting/0001", verdict: "failed", assertions, sessionId: "ses_2" });
    expect(store.evalRuns.listCases(run.id)).toMatchObject([
      { caseId: "greeting/0000", verdict: "passed", assertions: null, sessionId: "ses_1" },
      { caseId: "greeting/0001", verdict: "failed", assertions, sessionId: "ses_2" },
    ]);

    const summary = { passed: 1, failed: 1 };
    expect(store.evalRuns.update(run.id, { status: "completed", endedAt: "2025-01-01T00:00:09.000Z", summary })).toMatchObject(
      { status: "completed", summary },
    );
    expect(store.evalRuns.list().map((r) => r.id)).toEqual([run.id, older.id]);
    expect(store.evalRuns.delete(run.id)).toBe(true);
    expect(store.evalRuns.get(run.id)).toBeUndefined();
    expect(store.evalRuns.listCases(run.id)).toEqual([]);
  });
});
