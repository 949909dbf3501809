import type { EvalCaseResult } from "../../api/types.ts";
import { Button } from "../../ui/Button.tsx";
import { CheckIcon, XIcon } from "../../ui/icons.tsx";
import { cx } from "../../ui/cx.ts";
import { formatDuration } from "../../ui/format.ts";
import { useNavigation } from "../navigation.tsx";
import { verdictOf } from "./eval-results.ts";
import { VerdictBadge } from "./VerdictBadge.tsx";

/** One case of a run: verdict, each assertion with its message, a link to its session trace. */
export function EvalCaseCard({ result }: { result: EvalCaseResult }) {
  const nav = useNavigation();
  const assertions = result.assertions ?? [];
  return (
    <li className="space-y-2 px-4 py-3" data-testid="eval-case">
      <div className="flex flex-wrap items-center gap-2">
        <VerdictBadge verdict={verdictOf(result)} />
        <span className="min-w-0 flex-1 truncate font-mono text-sm">{result.caseId}</span>
        {result.passRate !== undefined && result.passRate < 1 && result.passRate > 0 ? (
          <span className="text-xs text-fg-muted">{Math.round(result.passRate * 100)}% of iterations</span>
        ) : null}
        {result.durationMs !== undefined ? <span className="text-xs text-fg-muted">{formatDuration(result.durationMs)}</span> : null}
        {result.sessionId ? (
          <Button size="sm" variant="ghost" onClick={() => nav.openSession(result.sessionId!, "trace")}>
            Trace
          </Button>
        ) : null}
      </div>
      {result.error ? <p className="text-xs break-words text-tone-danger">{result.error}</p> : null}
      {assertions.length ? (
        <ul className="space-y-1 pl-1">
          {assertions.map((assertion, index) => {
            const soft = assertion.soft || assertion.severity === "warning";
            return (
              <li key={index} className="flex items-start gap-2 text-xs">
                {assertion.passed ? (
                  <CheckIcon className="mt-0.5 size-3.5 shrink-0 text-mark-success" />
                ) : assertion.skipped ? (
                  <span className="mt-0.5 w-3.5 shrink-0 text-center text-fg-dim">–</span>
                ) : (
                  <XIcon className={cx("mt-0.5 size-3.5 shrink-0", soft ? "text-mark-warning" : "text-mark-danger")} />
                )}
                <div className="min-w-0 flex-1">
                  <p className="font-mono break-words">
                    <span className="font-medium">{assertion.label ?? assertion.name ?? `assertion ${index + 1}`}</span>
                    {soft ? <span className="ml-1.5 text-mark-warning-strong">(soft)</span> : null}
                    {assertion.skipped ? <span className="ml-1.5 text-fg-muted">(skipped)</span> : null}
                    {assertion.score !== undefined ? <span className="ml-1.5 text-fg-muted tabular-nums">score {assertion.score.toFixed(2)}</span> : null}
                  </p>
                  {assertion.message ? (
                    <p className="line-clamp-3 break-all text-fg-muted" title={assertion.message}>
                      {assertion.message}
                    </p>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      ) : null}
    </li>
  );
}
