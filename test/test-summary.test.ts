// The closing lines of `npm test` (scripts/summary.mjs): every failure is
// counted and named, so the tail of a CI log says what to fix.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const summary = path.resolve("scripts/summary.mjs");
const dirs: string[] = [];

function runSummary(reports: Record<string, unknown>, steps: string[]) {
  const dir = mkdtempSync(path.join(tmpdir(), "bdk-summary-"));
  dirs.push(dir);
  mkdirSync(path.join(dir, "test-results"));
  for (const [step, report] of Object.entries(reports)) {
    // "<cwd>" in a report stands for the directory the summary runs in.
    writeFileSync(path.join(dir, "test-results", `${step}.json`), JSON.stringify(report).replaceAll("<cwd>", dir));
  }
  const run = spawnSync(process.execPath, [summary, ...steps], { cwd: dir, encoding: "utf8" });
  return { status: run.status, lines: run.stdout.trim().split("\n") };
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("scripts/summary.mjs", () => {
  it("names each failed vitest test and each file that failed to load, and counts both", () => {
    const vitest = {
      numTotalTests: 3,
      numPassedTests: 2,
      numFailedTests: 1,
      numPendingTests: 0,
      numTodoTests: 0,
      testResults: [
        {
          name: "<cwd>/test/a.test.ts",
          status: "failed",
          message: "",
          assertionResults: [
            { status: "passed", fullName: "a works" },
            { status: "failed", fullName: "a breaks", failureMessages: ["\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n    at a.test.ts:3"] },
          ],
        },
        { name: "<cwd>/test/b.test.ts", status: "failed", message: "Error: Cannot find module 'x'\nstack", assertionResults: [] },
      ],
    };
    const { status, lines } = runSummary({ vitest }, ["vitest=1"]);
    expect(status).toBe(1);
    expect(lines).toEqual([
      "vitest: 2 passed, 2 failed",
      "  test/a.test.ts > a breaks: AssertionError: expected 1 to be 2",
      "  test/b.test.ts: Error: Cannot find module 'x'",
      "2 passed, 2 failed",
    ]);
  });

  it("names a failed Playwright test with its describe titles, and errors outside any test", () => {
    const e2e = {
      stats: { expected: 4, unexpected: 1, flaky: 1, skipped: 0 },
      errors: [{ message: "webServer exited early\nlog" }],
      suites: [
        {
          title: "chat.e2e.ts",
          file: "chat.e2e.ts",
          specs: [],
          suites: [
            {
              title: "Chat",
              file: "chat.e2e.ts",
              specs: [
                { title: "sends", file: "chat.e2e.ts", tests: [{ status: "unexpected", results: [{ error: { message: "Error: expect(locator).toBeVisible() failed" } }] }] },
                { title: "retries", file: "chat.e2e.ts", tests: [{ status: "flaky", results: [] }] },
              ],
            },
          ],
        },
      ],
    };
    const { status, lines } = runSummary({ e2e }, ["e2e=1"]);
    expect(status).toBe(1);
    expect(lines).toEqual([
      "e2e: 5 passed, 2 failed",
      "  chat.e2e.ts > Chat > sends: Error: expect(locator).toBeVisible() failed",
      "  webServer exited early",
      "5 passed, 2 failed",
    ]);
  });

  it("counts a step that exited non-zero with no report as a failure", () => {
    const { status, lines } = runSummary({}, ["setup=0", "typecheck=2"]);
    expect(status).toBe(1);
    expect(lines).toEqual(["typecheck: 0 passed, 1 failed", "  typecheck exited 2", "0 passed, 1 failed"]);
  });
});
