"use client";
import type { EvalAssertion, EvalComparison } from "../../api/types.ts";
import { CheckIcon, XIcon } from "../../ui/icons.tsx";
import { cx } from "../../ui/cx.ts";
import { formatDuration } from "../../ui/format.ts";
import { RunDiffBody } from "../iterate/RunDiffView.tsx";

type CaseRow = EvalComparison["cases"][number];

function Outcome({ assertion, ran }: { assertion: EvalAssertion | undefined; ran: boolean }) {
  if (!assertion) return <span className="text-fg-muted">{ran ? "not recorded" : "not run"}</span>;
  if (assertion.skipped) return <span className="text-fg-muted">skipped</span>;
  const soft = assertion.severity === "warning";
  return (
    <span className="inline-flex items-start gap-1" title={assertion.message}>
      {assertion.passed ? (
        <CheckIcon className="mt-0.5 size-3.5 shrink-0 text-mark-success" />
      ) : (
        <XIcon className={cx("mt-0.5 size-3.5 shrink-0", soft ? "text-mark-warning" : "text-mark-danger")} />
      )}
      <span>{assertion.passed ? "passed" : soft ? "failed (soft)" : "failed"}</span>
    </span>
  );
}

/**
 * One case in two runs: each assertion before and after (the ones that
 * flipped marked), duration and error, then the two sessions' reply text,
 * tool calls and tokens side by side. A side the run did not include is "not run".
 */
export function EvalCaseDiff({ row }: { row: CaseRow }) {
  const ranBefore = row.before !== undefined;
  const ranAfter = row.after !== undefined;
  const assertions = row.assertions ?? [];
  return (
    <div className="space-y-4 px-4 py-3" data-testid="eval-case-diff">
      <table className="w-full text-xs">
        <thead className="text-left text-fg-muted">
          <tr>
            <th className="py-1 pr-4 font-medium">Assertion</th>
            <th className="py-1 pr-4 font-medium">Before</th>
            <th className="py-1 font-medium">After</th>
          </tr>
        </thead>
        <tbody>
          {assertions.map((assertion, index) => (
            <tr
              key={index}
              data-testid="assertion-diff"
              data-flipped={assertion.flipped}
              className={cx("border-t border-line align-top", assertion.flipped && "bg-tone-warning-faint")}
            >
              <td className="py-1 pr-4 font-mono break-words">
                {assertion.name}
                {assertion.flipped ? <span className="ml-1.5 font-sans text-tone-warning-label">flipped</span> : null}
              </td>
              <td className="py-1 pr-4">
                <Outcome assertion={assertion.before} ran={ranBefore} />
              </td>
              <td className="py-1">
                <Outcome assertion={assertion.after} ran={ranAfter} />
              </td>
            </tr>
          ))}
          <tr className="border-t border-line text-fg-muted">
            <td className="py-1 pr-4">duration</td>
            <td className="py-1 pr-4 tabular-nums">{ranBefore ? formatDuration(row.beforeDurationMs) : "not run"}</td>
            <td className="py-1 tabular-nums">{ranAfter ? formatDuration(row.afterDurationMs) : "not run"}</td>
          </tr>
          {row.beforeError || row.afterError ? (
            <tr className="border-t border-line text-tone-danger">
              <td className="py-1 pr-4 text-fg-muted">error</td>
              <td className="py-1 pr-4 break-words">{row.beforeError ?? ""}</td>
              <td className="py-1 break-words">{row.afterError ?? ""}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {row.beforeSessionId && row.afterSessionId ? (
        <RunDiffBody before={row.beforeSessionId} after={row.afterSessionId} />
      ) : (
        <p className="text-xs text-fg-muted">Reply, tool calls and tokens compare when both runs ran the case; the {ranBefore ? "after" : "before"} run did not.</p>
      )}
    </div>
  );
}
