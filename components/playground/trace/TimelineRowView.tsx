import { cx } from "../../ui/cx.ts";
import { formatCount, formatDuration } from "../../ui/format.ts";
import type { RowKind, RowStatus, TimelineRow } from "./timeline.ts";

/** A bar's colour by its kind (the legend shows the same), and for the statuses that override it. */
export const barColor: Record<RowKind, string> = {
  turn: "bg-trace-turn",
  step: "bg-trace-step",
  tool: "bg-trace-tool",
  subagent: "bg-trace-subagent",
  approval: "bg-trace-approval",
};

export const statusOverride: Partial<Record<RowStatus, string>> & Record<"error", string> = {
  error: "bg-tone-danger-solid",
  cancelled: "bg-trace-cancelled",
};

export const LABEL_COLUMNS = "grid grid-cols-[8rem_1fr] sm:grid-cols-[15rem_1fr]";

/** One bar of the trace chart, placed by percentages of the visible range. */
export function TimelineRowView({
  row,
  rangeStart,
  rangeEnd,
  now,
  ticks,
  selected,
  expanded,
  onSelect,
}: {
  row: TimelineRow;
  rangeStart: number;
  rangeEnd: number;
  now: number;
  ticks: number[];
  selected: boolean;
  /** A subagent row: whether its own steps are shown under it. */
  expanded?: boolean;
  onSelect: () => void;
}) {
  const span = rangeEnd - rangeStart;
  const end = row.end ?? now;
  const left = Math.max(0, ((row.start - rangeStart) / span) * 100);
  const width = Math.max(0.4, ((Math.min(end, rangeEnd) - Math.max(row.start, rangeStart)) / span) * 100);
  const duration = row.durationMs ?? end - row.start;
  const text = [formatDuration(duration), row.tokens ? `${formatCount(row.tokens.input)}→${formatCount(row.tokens.output)} tok` : ""].filter(Boolean).join(" · ");
  // Wide bars carry their text; otherwise it sits after the bar, or before it near the right edge.
  const placement = width >= 25 ? { left: `${left}%` } : left + width < 72 ? { left: `${left + width}%` } : { right: `${100 - left}%` };
  const inside = width >= 25;
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-pressed={selected}
      aria-expanded={expanded}
      title={`${row.label}: ${text}${row.note ? ` (${row.note})` : ""}`}
      className={cx(LABEL_COLUMNS, "h-full w-full items-center text-left text-xs", selected ? "bg-accent-soft" : "hover:bg-surface-muted")}
    >
      <span className={cx("flex min-w-0 items-center gap-1.5 pr-2", row.kind === "turn" && "font-semibold")} style={{ paddingLeft: 8 + row.depth * 12 }}>
        <span className={cx("size-2 shrink-0 rounded-sm", statusOverride[row.status] ?? barColor[row.kind])} />
        <span className={cx("truncate", row.kind === "tool" || row.kind === "subagent" ? "font-mono" : "")}>{row.label}</span>
        {expanded !== undefined ? <span className="shrink-0 text-fg-muted" aria-hidden>{expanded ? "▾" : "▸"}</span> : null}
      </span>
      <span className="relative h-full border-l border-line">
        {ticks.map((tick) => (
          <span key={tick} className="absolute inset-y-0 w-px bg-trace-grid" style={{ left: `${(tick / span) * 100}%` }} />
        ))}
        <span
          className={cx(
            "absolute rounded-sm",
            row.kind === "turn" ? "top-1.5 bottom-1.5" : "top-2 bottom-2",
            statusOverride[row.status] ?? barColor[row.kind],
            row.end === undefined && "animate-soft-pulse",
          )}
          style={{ left: `${left}%`, width: `${width}%` }}
        />
        <span
          className={cx(
            "absolute top-1/2 -translate-y-1/2 px-1.5 whitespace-nowrap text-caption tabular-nums",
            inside ? "font-medium text-fg-on-accent" : "text-fg-soft",
          )}
          style={placement}
        >
          {text}
        </span>
      </span>
    </button>
  );
}
