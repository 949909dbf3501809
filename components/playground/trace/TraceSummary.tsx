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
    <dl className="grid grid-cols-3 gap-px overflow-hidden rounded-lg border border-zinc-200 bg-zinc-200 text-sm sm:grid-cols-6 dark:border-zinc-800 dark:bg-zinc-800">
      {stats.map(([label, value, extra]) => (
        <div key={label} className="bg-white px-3 py-2 dark:bg-zinc-950">
          <dt className="text-[11px] text-zinc-500">{label}</dt>
          <dd className="font-semibold tabular-nums">
            {value} {extra ? <span className="text-xs font-normal text-red-600 dark:text-red-400">({extra})</span> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}
