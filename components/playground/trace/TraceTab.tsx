"use client";
import { useEffect, useMemo, useState } from "react";
import { Button } from "../../ui/Button.tsx";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { VirtualList } from "../../ui/VirtualList.tsx";
import { cx } from "../../ui/cx.ts";
import { formatCount, formatDuration, shortId } from "../../ui/format.ts";
import { useNavigation } from "../navigation.tsx";
import type { FeedSnapshot } from "../session/session-feed.ts";
import { NoSessionSelected } from "../shell/NoSessionSelected.tsx";
import { niceTicks, tickLabel } from "./axis.ts";
import { buildTimeline, type TimelineRow } from "./timeline.ts";
import { LABEL_COLUMNS, TimelineRowView } from "./TimelineRowView.tsx";
import { TraceLegend } from "./TraceLegend.tsx";
import { TraceSummary } from "./TraceSummary.tsx";

const ROW_HEIGHT = 28;

/** The selected session as a chart: turns, steps, tool calls and subagents on one time axis. Click a turn to zoom into it. */
export function TraceTab({ feed }: { feed: FeedSnapshot | null }) {
  const nav = useNavigation();
  const [now, setNow] = useState(() => Date.now());
  const [zoom, setZoom] = useState<TimelineRow | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const events = feed?.events;
  const version = feed?.version;
  const timeline = useMemo(() => buildTimeline(events ?? [], Date.now()), [events, version]);
  const open = timeline.rows.some((row) => row.end === undefined);

  useEffect(() => {
    if (!open) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [open]);
  useEffect(() => {
    setZoom(null);
    setSelected(null);
  }, [nav.sessionId]);

  if (!nav.sessionId) return <NoSessionSelected tab="trace" />;
  if (feed?.status === "error") return <ErrorNotice className="m-4" error={new Error(feed.error)} title="Cannot load this session" />;
  if (!feed || (feed.status === "loading" && feed.events.length === 0))
    return (
      <div className="flex justify-center py-16">
        <Spinner className="text-zinc-400" />
      </div>
    );

  const rangeStart = zoom ? zoom.start : timeline.start;
  const rangeEnd = zoom ? (zoom.end ?? Math.max(now, timeline.end)) : open ? Math.max(now, timeline.end) : timeline.end;
  const span = Math.max(1, rangeEnd - rangeStart);
  const rows = zoom ? timeline.rows.filter((row) => row.start <= rangeEnd && (row.end ?? now) >= rangeStart) : timeline.rows;
  const ticks = niceTicks(span);
  const detail = selected ? timeline.rows.find((row) => row.key === selected) : undefined;

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 px-4 py-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-sm font-semibold">
          Trace <span className="font-mono text-xs font-normal text-fg-muted">{shortId(nav.sessionId)}</span>
        </h2>
        <TraceLegend />
        <div className="ml-auto flex gap-1">
          {zoom ? (
            <Button size="sm" variant="secondary" onClick={() => setZoom(null)}>
              Reset zoom
            </Button>
          ) : null}
          <Button size="sm" variant="ghost" onClick={() => nav.openSession(nav.sessionId!, "raw")}>
            Raw events
          </Button>
        </div>
      </div>
      <TraceSummary timeline={timeline} />
      {rows.length === 0 ? (
        <p className="py-8 text-center text-sm text-fg-muted">No turns yet.</p>
      ) : (
        <div className="flex min-h-0 flex-col overflow-hidden rounded-lg border border-line" data-testid="trace-chart">
          <VirtualList
            label="Trace timeline"
            className="min-h-0"
            count={rows.length}
            rowHeight={ROW_HEIGHT}
            header={
              <div className={cx(LABEL_COLUMNS, "sticky top-0 z-10 h-7 border-b border-line bg-surface-muted text-caption text-fg-muted")}>
                <span className="flex items-center px-2">{zoom ? `Zoomed: ${zoom.label}` : `${rows.length} rows`}</span>
                <span className="relative border-l border-line">
                  {ticks.map((tick) => (
                    <span key={tick} className="absolute top-1.5 -translate-x-1/2 tabular-nums first:translate-x-1" style={{ left: `${(tick / span) * 100}%` }}>
                      {tick / span < 0.97 ? `+${tickLabel(tick)}` : ""}
                    </span>
                  ))}
                </span>
              </div>
            }
            renderRow={(index) => {
              const row = rows[index];
              return (
                <TimelineRowView
                  row={row}
                  rangeStart={rangeStart}
                  rangeEnd={rangeEnd}
                  now={now}
                  ticks={ticks}
                  selected={row.key === selected}
                  onSelect={() => {
                    setSelected(row.key);
                    if (row.kind === "turn" && row.end !== undefined) setZoom(zoom?.key === row.key ? null : row);
                  }}
                />
              );
            }}
          />
          {detail ? (
            <div className="flex flex-wrap items-center gap-x-4 gap-y-1 border-t border-line bg-surface-muted px-3 py-2 text-xs" data-testid="trace-detail">
              <span className="font-semibold">{detail.label}</span>
              <span className="text-fg-muted">{detail.kind}</span>
              <span>starts +{tickLabel(detail.start - timeline.start)}</span>
              <span>{formatDuration((detail.end ?? now) - detail.start)}</span>
              {detail.tokens ? <span>{formatCount(detail.tokens.input)} in · {formatCount(detail.tokens.output)} out</span> : null}
              <span className={detail.status === "error" ? "text-tone-danger" : "text-fg-muted"}>{detail.status}</span>
              {detail.note ? <span className="min-w-0 truncate text-fg-muted">{detail.note}</span> : null}
            </div>
          ) : null}
        </div>
      )}
    </div>
  );
}
