import { describe, expect, it } from "vitest";
import { escapeXml, toJUnitXml } from "./junit.ts";
import { findAll, parseXml } from "./testing/xml.ts";
import type { CaseResult, EvalRunReport } from "./types.ts";

function caseResult(partial: Partial<CaseResult> & Pick<CaseResult, "id" | "verdict">): CaseResult {
  const base = { file: "evals/a.eval.ts", tags: [], passRate: partial.verdict === "passed" ? 1 : 0, durationMs: 1500, assertions: [] };
  const result = { ...base, ...partial, iterations: [] } as CaseResult;
  result.iterations = partial.iterations ?? [
    { iteration: 0, verdict: result.verdict, durationMs: result.durationMs, sessionIds: [], assertions: result.assertions },
  ];
  return result;
}

const report = (cases: CaseResult[]): EvalRunReport => ({
  version: 1,
  runId: "evr_1",
  agent: 'agent <"quoted"> & co',
  status: "completed",
  passed: false,
  startedAt: "2025-01-01T00:00:00.000Z",
  durationMs: 4200,
  options: { ids: [], tags: [], maxConcurrency: 2, strict: false, dryRun: true, target: "local" },
  counts: { total: cases.length, passed: 1, failed: 1, errored: 1, skipped: 1 },
  cases,
});

describe("toJUnitXml", () => {
  it("escapes markup and strips characters XML cannot carry", () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;");
    expect(escapeXml("bell\u0007 nul\u0000 ok\tnew\nline")).toBe("bell\uFFFD nul\uFFFD ok\tnew\nline");
  });

  it("writes well-formed suites per file with failure, error and skipped elements", () => {
    const xml = toJUnitXml(
      report([
        caseResult({ id: "a/ok", verdict: "passed", sessionId: "ses_1" }),
        caseResult({
          id: "a/bad",
          verdict: "failed",
          assertions: [
            { name: 'check(includes "<b>")', passed: false, severity: "error", message: 'expected "x & y" to satisfy includes "<b>"' },
            { name: "usedNoTools()", passed: false, severity: "warning", message: "expected no tool calls; calls: x {}" },
            { name: "succeeded()", passed: true, severity: "error", message: "the turn completed" },
          ],
        }),
        caseResult({ id: "b/boom", file: "evals/b.eval.ts", verdict: "errored", error: "timed out after 5 ms\u0001" }),
        caseResult({
          id: "b/judge",
          file: "evals/b.eval.ts",
          verdict: "skipped",
          assertions: [{ name: "judge(x)", passed: false, skipped: true, severity: "error", message: "skipped: no judge model" }],
        }),
      ]),
    );
    const root = parseXml(xml);
    expect(root.name).toBe("testsuites");
    expect(root.attributes).toMatchObject({ name: 'bdk eval agent <"quoted"> & co', tests: "4", failures: "1", errors: "1", skipped: "1", time: "4.200" });
    const suites = findAll(root, "testsuite");
    expect(suites.map((suite) => [suite.attributes.name, suite.attributes.tests])).toEqual([
      ["evals/a.eval.ts", "2"],
      ["evals/b.eval.ts", "2"],
    ]);
    const cases = findAll(root, "testcase");
    expect(cases.map((testcase) => testcase.attributes.name)).toEqual(["a/ok", "a/bad", "b/boom", "b/judge"]);
    expect(cases[0].children.map((child) => child.name)).toEqual(["system-out"]);
    const failure = findAll(cases[1], "failure")[0];
    expect(failure.attributes.message).toBe('check(includes "<b>"): expected "x & y" to satisfy includes "<b>"');
    expect(failure.text).toContain("(soft) usedNoTools(): expected no tool calls");
    expect(failure.text).not.toContain("succeeded()");
    expect(findAll(cases[2], "error")[0].attributes.message).toBe("timed out after 5 ms\uFFFD");
    expect(findAll(cases[3], "skipped")[0].attributes.message).toBe("skipped: no judge model");
  });

  it("the test parser rejects malformed XML", () => {
    expect(() => parseXml("<a><b></a></b>")).toThrow(/mismatched/);
    expect(() => parseXml('<a x="1 & 2"/>')).toThrow(/bare "&"/);
    expect(() => parseXml("<a>&nbsp;</a>")).toThrow(/unknown entity/);
    expect(() => parseXml("<a>")).toThrow(/unclosed/);
  });
});
