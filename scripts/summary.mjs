// The closing line of `npm test`: "N passed, M failed" over every runner.
//
//   node scripts/summary.mjs <step>=<exit status> ...
//
// A step whose report is test-results/<step>.json (vitest's or Playwright
// Test's JSON reporter) adds its counts. A test file that failed
// outside any test (it did not load, or a hook threw) counts as one failure,
// and so does a step that exited non-zero with nothing failed in its report
// (a crash, a missing report, a failed type check): the line never says
// "0 failed" for a run that failed. Exits 1 when anything failed.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

// The first line of a failure message, so the closing lines name what failed
// even when only the tail of a long run's output is kept.
function firstLine(message) {
  // Reporters colour their messages; the closing lines are plain text.
  return (message || "failed").replace(/\u001b\[[0-9;]*m/g, "").split("\n").find((line) => line.trim() !== "")?.trim().slice(0, 300) ?? "failed";
}

function vitestCounts(report) {
  const lines = [];
  let failed = report.numFailedTests ?? 0;
  for (const file of report.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failedTests) {
      lines.push(`  ${path.relative(process.cwd(), file.name)} > ${test.fullName ?? test.title}: ${firstLine(test.failureMessages?.[0])}`);
    }
    if (file.status === "failed" && failedTests.length === 0) {
      failed += 1;
      const reason = firstLine(file.message || "failed outside any test");
      lines.push(`  ${path.relative(process.cwd(), file.name)}: ${reason}`);
    }
  }
  return {
    passed: report.numPassedTests ?? 0,
    failed,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    lines,
  };
}

// Playwright Test: `unexpected` tests failed; an error outside any test (a file
// that did not load, a failing webServer or global setup) is in `errors`.
function playwrightCounts(report) {
  const errors = report.errors ?? [];
  const lines = unexpectedTests(report.suites ?? []).map(({ file, title, message }) => `  ${file} > ${title}: ${firstLine(message)}`);
  lines.push(...errors.map((error) => {
    const where = error.location ? `${path.relative(process.cwd(), error.location.file)}: ` : "";
    return `  ${where}${firstLine(error.message ?? "failed outside any test")}`;
  }));
  return {
    passed: (report.stats.expected ?? 0) + (report.stats.flaky ?? 0),
    failed: (report.stats.unexpected ?? 0) + errors.length,
    skipped: report.stats.skipped ?? 0,
    lines,
  };
}

// Playwright Test nests suites (file, describe) around specs; a spec whose
// test ended "unexpected" failed on every retry.
// The top-level suites are the files, whose title is the file name.
function unexpectedTests(suites, titles = undefined) {
  const found = [];
  for (const suite of suites) {
    const titlePath = titles === undefined ? [] : [...titles, suite.title];
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected") continue;
        const result = test.results?.at(-1);
        found.push({ file: spec.file ?? suite.file, title: [...titlePath, spec.title].filter(Boolean).join(" > "), message: result?.error?.message });
      }
    }
    found.push(...unexpectedTests(suite.suites ?? [], titlePath));
  }
  return found;
}

function counts(step) {
  const file = path.join("test-results", `${step}.json`);
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, "utf8"));
  if ("numTotalTests" in report) return vitestCounts(report);
  if ("stats" in report && "suites" in report) return playwrightCounts(report);
  throw new Error(`${file} is neither a vitest nor a Playwright Test JSON report`);
}

let passed = 0;
let failed = 0;
let skipped = 0;
for (const arg of process.argv.slice(2)) {
  const [step, status] = arg.split("=");
  const report = counts(step);
  const found = report ?? { passed: 0, failed: 0, skipped: 0, lines: [] };
  if (Number(status) !== 0 && found.failed === 0) {
    found.failed = 1;
    found.lines.push(`  ${step} exited ${status}${report ? " with no failed test in its report" : ""}`);
  }
  if (!report && found.failed === 0) continue;
  passed += found.passed;
  failed += found.failed;
  skipped += found.skipped;
  console.log(`${step}: ${found.passed} passed, ${found.failed} failed${found.skipped ? `, ${found.skipped} skipped` : ""}`);
  for (const line of found.lines) console.log(line);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exitCode = failed > 0 ? 1 : 0;
