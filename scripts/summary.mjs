// Adds up the vitest JSON report and the e2e summary into the closing line.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync("test-results/vitest.json")) {
  const report = JSON.parse(readFileSync("test-results/vitest.json", "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(`vitest: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}
if (existsSync("test-results/e2e.json")) {
  const report = JSON.parse(readFileSync("test-results/e2e.json", "utf8"));
  passed += report.passed ?? 0;
  failed += report.failed ?? 0;
  console.log(`e2e: ${report.passed} passed, ${report.failed} failed`);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
