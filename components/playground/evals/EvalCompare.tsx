"use client";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { cardClass } from "../../ui/styles.ts";
import { cx } from "../../ui/cx.ts";
import { shortId } from "../../ui/format.ts";
import { useEvalRun } from "./EvalRunDetail.tsx";
import { runSummaryText, verdictOf } from "./eval-results.ts";
import { VerdictBadge } from "./VerdictBadge.tsx";

/** Two runs side by side, case by case; rows whose verdict changed are highlighted. */
export function EvalCompare({ left, right }: { left: string; right: string }) {
  const a = useEvalRun(left);
  const b = useEvalRun(right);
  if (a.isError || b.isError) return <ErrorNotice error={a.error ?? b.error} />;
  const caseIds = [...new Set([...(a.data?.cases ?? []), ...(b.data?.cases ?? [])].map((c) => c.caseId))].sort();
  const find = (run: typeof a.data, id: string) => run?.cases?.find((c) => c.caseId === id);
  return (
    <div className={`${cardClass} overflow-x-auto`}>
      <table className="w-full text-sm">
        <thead className="text-left text-xs text-zinc-500">
          <tr className="border-b border-zinc-200 dark:border-zinc-800">
            <th className="px-4 py-2 font-medium">Case</th>
            <th className="px-4 py-2 font-medium">
              <span className="font-mono">{shortId(left)}</span> <span className="font-normal">{a.data ? runSummaryText(a.data) : ""}</span>
            </th>
            <th className="px-4 py-2 font-medium">
              <span className="font-mono">{shortId(right)}</span> <span className="font-normal">{b.data ? runSummaryText(b.data) : ""}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {caseIds.map((id) => {
            const va = verdictOf(find(a.data, id));
            const vb = verdictOf(find(b.data, id));
            return (
              <tr key={id} className={cx("border-b border-zinc-100 last:border-0 dark:border-zinc-800/60", va !== vb && "bg-amber-50 dark:bg-amber-500/10")}>
                <td className="px-4 py-2 font-mono text-xs">{id}</td>
                <td className="px-4 py-2">
                  <VerdictBadge verdict={va} />
                </td>
                <td className="px-4 py-2">
                  <VerdictBadge verdict={vb} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
