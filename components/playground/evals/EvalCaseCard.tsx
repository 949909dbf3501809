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
        {result.durationMs !== undefined ? <span className="text-xs text-zinc-500">{formatDuration(result.durationMs)}</span> : null}
        {result.sessionId ? (
          <Button size="sm" variant="ghost" onClick={() => nav.openSession(result.sessionId!, "trace")}>
            Trace
          </Button>
        ) : null}
      </div>
      {result.error ? <p className="text-xs text-red-600 dark:text-red-400">{result.error}</p> : null}
      {assertions.length ? (
        <ul className="space-y-1 pl-1">
          {assertions.map((assertion, index) => (
            <li key={index} className="flex items-start gap-2 text-xs">
              {assertion.passed ? (
                <CheckIcon className="mt-0.5 size-3.5 shrink-0 text-emerald-600" />
              ) : (
                <XIcon className={cx("mt-0.5 size-3.5 shrink-0", assertion.soft ? "text-amber-500" : "text-red-600")} />
              )}
              <span className="font-medium">{assertion.label ?? assertion.name ?? `assertion ${index + 1}`}</span>
              {assertion.soft ? <span className="text-amber-600">(soft)</span> : null}
              {assertion.message ? <span className="min-w-0 break-words text-zinc-500 dark:text-zinc-400">{assertion.message}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
