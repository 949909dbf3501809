"use client";
import { useQuery } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { isMissingRoute } from "../../api/errors.ts";
import type { EvalComparison } from "../../api/types.ts";
import { Badge, type Tone } from "../../ui/Badge.tsx";
import { Button } from "../../ui/Button.tsx";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { cardClass } from "../../ui/styles.ts";
import { cx } from "../../ui/cx.ts";
import { shortId } from "../../ui/format.ts";
import { useApi } from "../api-context.tsx";
import { useNavigation } from "../navigation.tsx";
import { useEvalRun } from "./EvalRunDetail.tsx";
import { EvalCaseDiff } from "./EvalCaseDiff.tsx";
import { compareLocally, verdictOf } from "./eval-results.ts";
import { VerdictBadge } from "./VerdictBadge.tsx";

const changeTone: Record<string, Tone> = {
  improved: "success",
  regressed: "danger",
  changed: "warning",
  added: "info",
  removed: "neutral",
  not_run: "neutral",
  unchanged: "neutral",
};

/** `not_run`: the case exists but the newer run did not select it (not the same as a case deleted from the project). */
const changeLabel = (change: string) => (change === "not_run" ? "not run" : change);

/** Two runs side by side, case by case (the server's comparison, or the same computed here); a case opens into its diff. */
export function EvalCompare({ before, after }: { before: string; after: string }) {
  const api = useApi();
  const nav = useNavigation();
  const [open, setOpen] = useState<string | null>(null);
  const remote = useQuery({ queryKey: ["eval-compare", api.base, before, after], queryFn: ({ signal }) => api.compareEvalRuns(before, after, signal) });
  const fallback = remote.isError && isMissingRoute(remote.error);
  const a = useEvalRun(fallback ? before : null);
  const b = useEvalRun(fallback ? after : null);
  const comparison: EvalComparison | undefined = remote.data ?? (a.data && b.data ? compareLocally(a.data, b.data) : undefined);

  if (remote.isError && !fallback) return <ErrorNotice error={remote.error} />;
  if (!comparison)
    return (
      <div className="flex justify-center py-8">
        <Spinner className="text-fg-faint" />
      </div>
    );
  const traceButton = (sessionId: string | undefined) =>
    sessionId ? (
      <Button size="sm" variant="ghost" className="h-6 px-1.5" onClick={() => nav.openSession(sessionId, "trace")}>
        trace
      </Button>
    ) : null;
  return (
    <div className={`${cardClass} overflow-x-auto`} data-testid="eval-compare">
      <table className="w-full text-sm">
        <thead className="text-left text-xs text-fg-muted">
          <tr className="border-b border-line">
            <th className="px-4 py-2 font-medium">Case</th>
            <th className="px-4 py-2 font-medium">
              Before <span className="font-mono font-normal">{shortId(before)}</span>
            </th>
            <th className="px-4 py-2 font-medium">
              After <span className="font-mono font-normal">{shortId(after)}</span>
            </th>
            <th className="px-4 py-2 font-medium">Change</th>
            <th className="px-4 py-2 font-medium">
              <span className="sr-only">Diff</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {comparison.cases.map((row) => (
            <Fragment key={row.id}>
              <tr data-testid="compare-case" data-case={row.id} className={cx("border-b border-line-faint last:border-0", row.change === "regressed" && "bg-tone-danger-faint")}>
                <td className="px-4 py-2 font-mono text-xs">{row.id}</td>
                <td className="px-4 py-2 whitespace-nowrap">
                  {row.before ? <VerdictBadge verdict={verdictOf(row.before)} /> : "—"} {traceButton(row.beforeSessionId)}
                </td>
                <td className="px-4 py-2 whitespace-nowrap">
                  {row.after ? <VerdictBadge verdict={verdictOf(row.after)} /> : "—"} {traceButton(row.afterSessionId)}
                </td>
                <td className="px-4 py-2">
                  <Badge tone={changeTone[row.change] ?? "neutral"}>{changeLabel(row.change)}</Badge>
                </td>
                <td className="px-4 py-2 text-right">
                  <Button size="sm" variant="ghost" className="h-6 px-1.5" aria-expanded={open === row.id} onClick={() => setOpen(open === row.id ? null : row.id)}>
                    {open === row.id ? "Hide diff" : "Diff"}
                  </Button>
                </td>
              </tr>
              {open === row.id ? (
                <tr className="border-b border-line bg-surface-hover/40">
                  <td colSpan={5}>
                    <EvalCaseDiff row={row} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
