/**
 * Eval runs as the UI needs them, tolerant of the exact server shape
 * (`runId` or `id`, `{ run: { cases } }` or `{ run, cases }`, counts or summary).
 */
import type { EvalAssertion, EvalCaseResult, EvalComparison, EvalCounts, EvalRun } from "../../api/types.ts";

export type Verdict = "pass" | "fail" | "error" | "running" | "skipped" | "unknown";

export function verdictOf(result: { verdict?: string } | string | undefined): Verdict {
  const raw = String((typeof result === "string" ? result : result?.verdict) ?? "").toLowerCase();
  if (["pass", "passed", "ok", "success"].includes(raw)) return "pass";
  if (["fail", "failed"].includes(raw)) return "fail";
  if (["error", "errored", "timeout"].includes(raw)) return "error";
  if (["running", "pending", "queued"].includes(raw)) return "running";
  if (["skip", "skipped"].includes(raw)) return "skipped";
  return "unknown";
}

/** A run header from the list or the detail route, with a guaranteed `id`. */
export function normalizeRunHeader(run: EvalRun): EvalRun {
  return { ...run, id: run.id ?? run.runId ?? "?" };
}

export function normalizeRun(response: { run?: EvalRun; cases?: EvalCaseResult[] } | undefined): EvalRun | undefined {
  if (!response?.run) return undefined;
  const cases = response.run.cases ?? response.cases ?? [];
  return {
    ...normalizeRunHeader(response.run),
    cases: cases.map((c) => ({ ...c, caseId: c.caseId ?? c.id ?? "?", assertions: normalizeAssertions(c.assertions) })),
  };
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

function countsOf(run: EvalRun): EvalCounts | undefined {
  return run.counts ?? run.summary ?? undefined;
}

export function runSummaryText(run: EvalRun): string {
  const counts = countsOf(run);
  if (!counts) return run.status === "running" ? "running…" : "";
  const passed = counts.passed;
  const total = counts.total ?? (passed !== undefined && counts.failed !== undefined ? passed + counts.failed + (counts.errored ?? 0) : undefined);
  if (passed === undefined && total === undefined) return "";
  const broken = (counts.failed ?? 0) + (counts.errored ?? 0);
  return `${passed ?? "?"}/${total ?? "?"} passed${broken ? ` · ${broken} failing` : ""}`;
}

/** The same comparison the server computes, for servers without the compare route. */
export function compareLocally(before: EvalRun, after: EvalRun): EvalComparison {
  const a = new Map((before.cases ?? []).map((c) => [c.caseId, c]));
  const b = new Map((after.cases ?? []).map((c) => [c.caseId, c]));
  const ids = [...new Set([...a.keys(), ...b.keys()])].sort();
  return {
    before: before.id,
    after: after.id,
    cases: ids.map((id) => {
      const was = a.get(id);
      const now = b.get(id);
      const [va, vb] = [verdictOf(was), verdictOf(now)];
      const change = !was ? "added" : !now ? "removed" : va === vb ? "unchanged" : vb === "pass" ? "improved" : va === "pass" ? "regressed" : "changed";
      return { id, before: was?.verdict, after: now?.verdict, change, beforeSessionId: was?.sessionId ?? undefined, afterSessionId: now?.sessionId ?? undefined };
    }),
  };
}

/** A finished run shows whether it passed, not just that it completed. */
export function runBadgeStatus(run: EvalRun): string | undefined {
  if (run.status === "completed" && run.passed !== undefined) return run.passed ? "passed" : "failed";
  return run.status;
}
