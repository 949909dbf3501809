"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage, isMissingRoute } from "../../api/errors.ts";
import type { AgentInfo } from "../../api/types.ts";
import { Button } from "../../ui/Button.tsx";
import { Chip } from "../../ui/Chip.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { Section } from "../../ui/Section.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { StatusBadge } from "../../ui/StatusBadge.tsx";
import { PlayIcon } from "../../ui/icons.tsx";
import { cardClass, inputClass } from "../../ui/styles.ts";
import { cx } from "../../ui/cx.ts";
import { relativeTime, shortId } from "../../ui/format.ts";
import { useApi } from "../api-context.tsx";
import { useDevMode, useEvalRuns } from "../hooks.ts";
import { useNavigation } from "../navigation.tsx";
import { EvalCompare } from "./EvalCompare.tsx";
import { EvalRunDetail } from "./EvalRunDetail.tsx";
import { normalizeRunHeader, runBadgeStatus, runSummaryText } from "./eval-results.ts";

/** Filesystem evals: pick and run them, read results per assertion, compare two runs. */
export function EvalsTab({ info }: { info: AgentInfo | undefined }) {
  const api = useApi();
  const nav = useNavigation();
  const queryClient = useQueryClient();
  // `bdk dev` reloads evals/ on change: under dev the list is asked again every few seconds, so a file
  // written or edited while the tab is open shows without a reload; elsewhere, on coming back to the window.
  const dev = useDevMode();
  const evals = useQuery({
    queryKey: ["evals", api.base],
    queryFn: ({ signal }) => api.evals(signal),
    refetchOnWindowFocus: true,
    refetchInterval: dev ? 2000 : false,
  });
  const runs = useEvalRuns(true);
  const [selected, setSelected] = useState<string[]>([]);
  const [tags, setTags] = useState<string[]>([]);
  const [compareWith, setCompareWith] = useState<string | null>(null);
  const [runName, setRunName] = useState("");

  const start = useMutation({
    mutationFn: (selection: { ids?: string[]; tags?: string[] }) => api.startEvalRun({ ...selection, ...(runName.trim() ? { name: runName.trim() } : {}) }),
    onSuccess: (response) => {
      void queryClient.invalidateQueries({ queryKey: ["eval-runs"] });
      const runId = response.runId ?? response.run?.id ?? response.id;
      if (runId) nav.openEvalRun(runId);
    },
  });

  if (evals.isError && isMissingRoute(evals.error)) {
    const discovered = Array.isArray(info?.evals) ? info.evals : [];
    return (
      <div className="mx-auto max-w-5xl space-y-6 px-4 py-6">
        <EmptyState title="Running evals from the browser is not available on this server yet">
          It does not expose <code className="font-mono">/v1/evals</code>. Run them with <code className="font-mono">bdk eval</code> meanwhile.
        </EmptyState>
        {discovered.length ? (
          <Section title="Discovered evals" count={discovered.length}>
            <ul className={`${cardClass} divide-y divide-line`}>
              {discovered.map((item) => (
                <li key={item.id} className="flex flex-wrap items-baseline gap-x-3 px-4 py-2.5">
                  <span className="font-mono text-sm">{item.id}</span>
                  {item.file ? <span className="font-mono text-xs text-fg-muted">{item.file}</span> : null}
                  <span className="text-xs text-fg-muted">{(item.tags ?? []).map((tag) => `#${tag}`).join(" ")}</span>
                </li>
              ))}
            </ul>
          </Section>
        ) : null}
      </div>
    );
  }

  const list = evals.data?.cases ?? evals.data?.evals ?? [];
  const allTags = [...new Set(list.flatMap((e) => e.tags ?? []))].sort();
  const runList = (runs.data?.runs ?? []).map(normalizeRunHeader);
  // With nothing picked, show the newest run.
  const activeRun = nav.evalRunId ?? runList[0]?.id ?? null;
  const toggle = (list: string[], value: string) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);

  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 py-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <div className="space-y-8">
        <Section
          title="Evals"
          count={evals.isSuccess ? list.length : undefined}
          actions={
            <>
              <input
                className={`${inputClass} h-7 w-36 text-xs`}
                placeholder="Run name (optional)"
                aria-label="Run name"
                value={runName}
                maxLength={120}
                onChange={(event) => setRunName(event.target.value)}
              />
              <Button size="sm" variant="secondary" disabled={start.isPending || selected.length + tags.length === 0} onClick={() => start.mutate({ ids: selected.length ? selected : undefined, tags: tags.length ? tags : undefined })}>
                <PlayIcon className="size-3.5" /> Run selected
              </Button>
              <Button size="sm" variant="primary" disabled={start.isPending || list.length === 0} onClick={() => start.mutate({})}>
                {start.isPending ? <Spinner className="size-3" /> : <PlayIcon className="size-3.5" />} Run all
              </Button>
            </>
          }
        >
          {start.isError ? <ErrorNotice error={start.error} title="Could not start the run" /> : null}
          {allTags.length ? (
            <div className="flex flex-wrap gap-1.5" aria-label="Filter by tag">
              {allTags.map((tag) => (
                <Chip key={tag} pressed={tags.includes(tag)} onToggle={() => setTags(toggle(tags, tag))}>
                  #{tag}
                </Chip>
              ))}
            </div>
          ) : null}
          {evals.isError ? (
            <ErrorNotice error={evals.error} />
          ) : evals.isLoading ? (
            <Spinner className="text-fg-faint" />
          ) : list.length === 0 ? (
            <EmptyState title="No evals found">Add files under evals/ named *.eval.ts.</EmptyState>
          ) : (
            <ul className={`${cardClass} divide-y divide-line`}>
              {list.map((item) => (
                <li key={item.id} className="flex items-start gap-3 px-4 py-2.5">
                  <input
                    id={`eval-${item.id}`}
                    type="checkbox"
                    className="mt-1 size-4 accent-accent-solid"
                    checked={selected.includes(item.id)}
                    onChange={() => setSelected(toggle(selected, item.id))}
                  />
                  <label htmlFor={`eval-${item.id}`} className="min-w-0 flex-1 cursor-pointer">
                    <span className="block font-mono text-sm">{item.id}</span>
                    {item.description ? <span className="block text-xs text-fg-muted">{item.description}</span> : null}
                    <span className="mt-0.5 flex flex-wrap gap-1 text-caption text-fg-muted">
                      {item.iterations && item.iterations > 1 ? <span>{item.iterations}× </span> : null}
                      {(item.tags ?? []).map((tag) => (
                        <span key={tag}>#{tag}</span>
                      ))}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          )}
        </Section>

        <Section title="Runs" count={runs.isSuccess ? runList.length : undefined}>
          {runs.isError && !isMissingRoute(runs.error) ? <ErrorNotice error={runs.error} /> : null}
          {runList.length === 0 ? (
            <p className="text-sm text-fg-muted">{runs.isError ? errorMessage(runs.error) : "No runs yet."}</p>
          ) : (
            <ul className={`${cardClass} divide-y divide-line overflow-hidden`}>
              {runList.map((run) => (
                <li key={run.id} className={cx("flex items-center gap-2 px-3 py-2", run.id === activeRun && "bg-accent-soft")}>
                  <button type="button" className="flex min-w-0 flex-1 items-center gap-3 text-left" onClick={() => nav.openEvalRun(run.id)}>
                    <StatusBadge status={runBadgeStatus(run)} />
                    {run.name ? <span className="truncate text-xs font-medium">{run.name}</span> : null}
                    <span className="truncate font-mono text-xs">{shortId(run.id)}</span>
                    <span className="text-xs text-fg-muted">{runSummaryText(run)}</span>
                    <span className="ml-auto hidden text-xs text-fg-dim sm:inline">{relativeTime(run.startedAt)}</span>
                  </button>
                  {activeRun && run.id !== activeRun ? (
                    <Button size="sm" variant={compareWith === run.id ? "primary" : "ghost"} onClick={() => setCompareWith(compareWith === run.id ? null : run.id)}>
                      {compareWith === run.id ? "Comparing" : "Compare"}
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>

      <div className="min-w-0">
        {activeRun && compareWith ? (
          <Section title="Compare runs" actions={<Button size="sm" variant="ghost" onClick={() => setCompareWith(null)}>Close</Button>}>
            <EvalCompare before={compareWith} after={activeRun} />
          </Section>
        ) : activeRun ? (
          <Section title="Run results">
            <EvalRunDetail runId={activeRun} />
          </Section>
        ) : (
          <EmptyState title="No run selected">Run evals or pick a run to see per-assertion results. Select a second run to compare them side by side.</EmptyState>
        )}
      </div>
    </div>
  );
}
