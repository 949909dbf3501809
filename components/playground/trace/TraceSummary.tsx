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
    <dl className="grid grid-cols-3 gap-px overflow-hidden rounded-lg border border-line bg-line text-sm sm:grid-cols-6">
      {stats.map(([label, value, extra]) => (
        <div key={label} className="bg-surface px-3 py-2">
          <dt className="text-caption text-fg-muted">{label}</dt>
          <dd className="font-semibold tabular-nums">
            {value} {extra ? <span className="text-xs font-normal text-tone-danger">({extra})</span> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}
