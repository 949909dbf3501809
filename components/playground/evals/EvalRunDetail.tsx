"use client";
import { useQuery } from "@tanstack/react-query";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { StatusBadge } from "../../ui/StatusBadge.tsx";
import { cardClass } from "../../ui/styles.ts";
import { formatDateTime, formatDuration, shortId } from "../../ui/format.ts";
import { useApi } from "../api-context.tsx";
import { EvalCaseCard } from "./EvalCaseCard.tsx";
import { normalizeRun, runBadgeStatus, runSummaryText } from "./eval-results.ts";

export function useEvalRun(runId: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: ["eval-run", api.base, runId],
    queryFn: async ({ signal }) => normalizeRun(await api.evalRun(runId!, signal)),
    enabled: !!runId,
    refetchInterval: (query) => (query.state.data?.status === "running" ? 1500 : false),
  });
}

/** Per-case, per-assertion results of one run. */
export function EvalRunDetail({ runId }: { runId: string }) {
  const run = useEvalRun(runId);
  if (run.isError) return <ErrorNotice error={run.error} />;
  if (!run.data)
    return (
      <div className="flex justify-center py-8">
        <Spinner className="text-fg-faint" />
      </div>
    );
  const data = run.data;
  return (
    <div className={`${cardClass} overflow-hidden`} data-testid="eval-run">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-line px-4 py-3">
        <StatusBadge status={runBadgeStatus(data)} />
        {data.name ? <span className="text-sm font-medium">{data.name}</span> : null}
        <span className="font-mono text-sm" title={data.id}>
          {shortId(data.id)}
        </span>
        <span className="text-xs text-fg-muted">{formatDateTime(data.startedAt)}</span>
        {data.durationMs !== undefined ? <span className="text-xs text-fg-muted">{formatDuration(data.durationMs)}</span> : null}
        <span className="ml-auto text-sm font-medium">{runSummaryText(data)}</span>
      </div>
      {data.cases?.length ? (
        <ul className="divide-y divide-line">
          {data.cases.map((result) => (
            <EvalCaseCard key={result.caseId} result={result} />
          ))}
        </ul>
      ) : (
        <p className="px-4 py-6 text-center text-sm text-fg-muted">{data.status === "running" ? "Cases are running…" : "This run has no case results."}</p>
      )}
    </div>
  );
}
