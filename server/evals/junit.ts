/**
 * JUnit XML for CI dashboards: one <testsuite> per eval file, one
 * <testcase> per case; failed assertions become <failure>, a thrown error
 * or timeout <error>, a skipped case <skipped>.
 */
import type { AssertionResult, CaseResult, EvalRunReport } from "./types.ts";

// Characters XML 1.0 cannot carry at all, even escaped.
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function escapeXml(text: string): string {
  return text
    .replace(INVALID_XML_CHARS, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function attributes(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeXml(String(value))}"`)
    .join("");
}

function assertionLine(result: AssertionResult): string {
  return `${result.severity === "warning" ? "(soft) " : ""}${result.name}: ${result.message}`;
}

function testcase(result: CaseResult): string {
  const open = `    <testcase${attributes({ classname: result.file, name: result.id, time: seconds(result.durationMs) })}>`;
  const body: string[] = [];
  const failing = result.assertions.filter((assertion) => !assertion.passed && !assertion.skipped);
  if (result.verdict === "errored") {
    body.push(`      <error${attributes({ message: result.error ?? "error", type: "error" })}>${escapeXml(failing.map(assertionLine).join("\n"))}</error>`);
  } else if (result.verdict === "failed") {
    const first = failing[0];
    const message = first ? assertionLine(first) : "failed";
    body.push(`      <failure${attributes({ message, type: "assertion" })}>${escapeXml(failing.map(assertionLine).join("\n"))}</failure>`);
  } else if (result.verdict === "skipped") {
    const reason = result.assertions.find((assertion) => assertion.skipped)?.message ?? "skipped";
    body.push(`      <skipped${attributes({ message: reason })}/>`);
  }
  const out = [
    ...(result.sessionId ? [`session: ${result.sessionId}`] : []),
    ...(result.iterations.length > 1 ? [`pass rate: ${result.iterations.filter((i) => i.verdict === "passed").length}/${result.iterations.length}`] : []),
  ];
  if (out.length > 0) body.push(`      <system-out>${escapeXml(out.join("\n"))}</system-out>`);
  return body.length === 0 ? `${open.slice(0, -1)}/>` : [open, ...body, "    </testcase>"].join("\n");
}

export function toJUnitXml(report: EvalRunReport): string {
  const byFile = new Map<string, CaseResult[]>();
  for (const result of report.cases) byFile.set(result.file, [...(byFile.get(result.file) ?? []), result]);
  const suites = [...byFile].map(([file, cases]) => {
    const count = (verdict: CaseResult["verdict"]) => cases.filter((result) => result.verdict === verdict).length;
    const time = cases.reduce((sum, result) => sum + result.durationMs, 0);
    const open = `  <testsuite${attributes({
      name: file,
      tests: cases.length,
      failures: count("failed"),
      errors: count("errored"),
      skipped: count("skipped"),
      time: seconds(time),
      timestamp: report.startedAt,
    })}>`;
    return [open, ...cases.map(testcase), "  </testsuite>"].join("\n");
  });
  const root = `<testsuites${attributes({
    name: `bdk eval ${report.agent}`,
    tests: report.counts.total,
    failures: report.counts.failed,
    errors: report.counts.errored,
    skipped: report.counts.skipped,
    time: seconds(report.durationMs ?? 0),
  })}>`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', root, ...suites, "</testsuites>", ""].join("\n");
}
