import { formatCount, formatDuration } from "../../ui/format.ts";
import type { Timeline } from "./timeline.ts";

/** The headline numbers above the chart. */
export function TraceSummary({ timeline }: { timeline: Timeline }) {
  const { totals } = timeline;
  const stats: Array<[string, string, string?]> = [
    ["Duration", formatDuration(timeline.end - timeline.start)],
    ["Turns", String(totals.turns)],
    ["Steps", String(totals.steps)],
    ["Tool calls", String(totals.tools), totals.toolErrors ? `${totals.toolErrors} failed` : undefined],
    ["Subagents", String(totals.subagents)],
    ["Tokens", `${formatCount(totals.inputTokens)} in · ${formatCount(totals.outputTokens)} out`],
  ];
  return (
    <dl className="grid shrink-0 grid-cols-2 gap-px overflow-hidden rounded-lg border border-line bg-line text-sm sm:grid-cols-3 xl:grid-cols-6" data-testid="trace-summary">
      {stats.map(([label, value, extra]) => (
        // min-w-0 + truncate: a cell never pushes the strip wider than the page, whatever the counts.
        <div key={label} className="min-w-0 bg-surface px-3 py-2" title={`${label}: ${value}${extra ? ` (${extra})` : ""}`}>
          <dt className="truncate text-caption text-fg-muted">{label}</dt>
          <dd className="truncate font-semibold tabular-nums">
            {value} {extra ? <span className="text-xs font-normal text-tone-danger">({extra})</span> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}
