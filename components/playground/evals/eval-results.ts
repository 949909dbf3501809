/**
 * Eval run results as the UI needs them, tolerant of the exact server shape
 * (`{ run: { cases } }` or `{ run, cases }`, assertions as a list or an object).
 */
import type { EvalAssertion, EvalCaseResult, EvalRun } from "../../api/types.ts";

export type Verdict = "pass" | "fail" | "error" | "running" | "skipped" | "unknown";

export function verdictOf(result: EvalCaseResult | undefined): Verdict {
  const raw = String(result?.verdict ?? "").toLowerCase();
  if (["pass", "passed", "ok", "success"].includes(raw)) return "pass";
  if (["fail", "failed"].includes(raw)) return "fail";
  if (["error", "errored", "timeout"].includes(raw)) return "error";
  if (["running", "pending", "queued"].includes(raw)) return "running";
  if (["skip", "skipped"].includes(raw)) return "skipped";
  return "unknown";
}

export function normalizeRun(response: { run?: EvalRun; cases?: EvalCaseResult[] } | undefined): EvalRun | undefined {
  if (!response?.run) return undefined;
  const cases = response.run.cases ?? response.cases ?? [];
  return { ...response.run, cases: cases.map((c) => ({ ...c, caseId: c.caseId ?? (c as { id?: string }).id ?? "?", assertions: normalizeAssertions(c.assertions) })) };
}

function normalizeAssertions(raw: unknown): EvalAssertion[] {
  if (Array.isArray(raw)) return raw.filter((a) => a && typeof a === "object") as EvalAssertion[];
  if (raw && typeof raw === "object") {
    const nested = (raw as { assertions?: unknown }).assertions;
    if (Array.isArray(nested)) return normalizeAssertions(nested);
    return Object.entries(raw as Record<string, unknown>).map(([name, value]) =>
      value && typeof value === "object" ? { name, ...(value as EvalAssertion) } : { name, passed: Boolean(value) },
    );
  }
  return [];
}

export function runSummaryText(run: EvalRun): string {
  const summary = run.summary;
  if (!summary) return run.status === "running" ? "running…" : "";
  const passed = typeof summary.passed === "number" ? summary.passed : undefined;
  const failed = typeof summary.failed === "number" ? summary.failed : undefined;
  const total = typeof summary.total === "number" ? summary.total : passed !== undefined && failed !== undefined ? passed + failed : undefined;
  if (passed === undefined && total === undefined) return "";
  return `${passed ?? "?"}/${total ?? "?"} passed`;
}
