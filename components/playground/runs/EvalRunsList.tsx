"use client";
import { isMissingRoute } from "../../api/errors.ts";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { Section } from "../../ui/Section.tsx";
import { StatusBadge } from "../../ui/StatusBadge.tsx";
import { cardClass } from "../../ui/styles.ts";
import { formatDateTime, relativeTime, shortId } from "../../ui/format.ts";
import { useEvalRuns } from "../hooks.ts";
import { useNavigation } from "../navigation.tsx";
import { normalizeRunHeader, runBadgeStatus, runSummaryText } from "../evals/eval-results.ts";

/** Eval runs in the Runs tab; each opens in the Evals tab. */
export function EvalRunsList() {
  const nav = useNavigation();
  const runs = useEvalRuns(true);
  const list = (runs.data?.runs ?? []).map(normalizeRunHeader);
  return (
    <Section title="Eval runs" count={runs.isSuccess ? list.length : undefined}>
      {runs.isError && isMissingRoute(runs.error) ? (
        <EmptyState title="Evals are not available on this server yet">Eval runs appear here once the server exposes GET /v1/evals/runs.</EmptyState>
      ) : runs.isError ? (
        <ErrorNotice error={runs.error} />
      ) : runs.isSuccess && list.length === 0 ? (
        <EmptyState title="No eval runs yet">Start one from the Evals tab or with `bdk eval`.</EmptyState>
      ) : (
        <ul className={`${cardClass} divide-y divide-line overflow-hidden`}>
          {list.map((run) => (
            <li key={run.id}>
              <button type="button" onClick={() => nav.openEvalRun(run.id)} className="flex w-full flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 text-left hover:bg-surface-soft">
                <span className="w-24 shrink-0">
                  <StatusBadge status={runBadgeStatus(run)} />
                </span>
                <span className="min-w-0 flex-1 font-mono text-sm" title={run.id}>
                  {shortId(run.id)}
                </span>
                <span className="text-xs text-fg-soft">{runSummaryText(run)}</span>
                <span className="w-28 text-xs text-fg-muted" title={formatDateTime(run.startedAt)}>
                  {relativeTime(run.startedAt)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
