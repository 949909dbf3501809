"use client";
import { useQueries } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { Button } from "../../ui/Button.tsx";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { VirtualList } from "../../ui/VirtualList.tsx";
import { cx } from "../../ui/cx.ts";
import { shortId } from "../../ui/format.ts";
import { useApi } from "../api-context.tsx";
import { useNavigation } from "../navigation.tsx";
import type { FeedSnapshot } from "../session/session-feed.ts";
import { NoSessionSelected } from "../shell/NoSessionSelected.tsx";
import { niceTicks, tickLabel } from "./axis.ts";
import { subagentRows } from "./subagent-rows.ts";
import { buildTimeline, type TimelineRow } from "./timeline.ts";
import { ForkFromEvent } from "../iterate/ForkFromEvent.tsx";
import { TraceDetail, type TraceQuery } from "./TraceDetail.tsx";
import { LABEL_COLUMNS, TimelineRowView } from "./TimelineRowView.tsx";
import { TraceLegend } from "./TraceLegend.tsx";
import { TraceSummary } from "./TraceSummary.tsx";

const ROW_HEIGHT = 28;

/**
 * The selected session as a chart: turns, steps, tool calls and subagents on
 * one time axis. Click a turn to zoom into it, a subagent to open its own
 * steps, any row to see what it was (a step's request and response, a tool
 * call's input and output).
 */
export function TraceTab({ feed }: { feed: FeedSnapshot | null }) {
  const nav = useNavigation();
  const api = useApi();
  const [now, setNow] = useState(() => Date.now());
  const [zoom, setZoom] = useState<TimelineRow | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const events = feed?.events;
  const version = feed?.version;
  const timeline = useMemo(() => buildTimeline(events ?? [], Date.now()), [events, version]);
  const open = timeline.rows.some((row) => row.end === undefined);
  const turnRows = useMemo(() => new Map(timeline.rows.filter((row) => row.kind === "turn").map((row) => [row.key, row])), [timeline]);

  // The turns whose stored content is needed: the selected row's, and those of opened subagents.
  const selectedTurn = selected ? rowTurn(selected, timeline.rows) : undefined;
  const wanted = [...new Set([selectedTurn, ...[...expanded].map((key) => rowTurn(key, timeline.rows))].filter((id): id is string => !!id))];
  const traces = useQueries({
    queries: wanted.map((turnId) => {
      const running = turnRows.get(turnId)?.end === undefined;
      return {
        queryKey: ["turn-trace", api.base, nav.sessionId, turnId, running ? "running" : "ended"],
        queryFn: ({ signal }: { signal: AbortSignal }) => api.turnTrace(nav.sessionId!, turnId, signal),
        enabled: !!nav.sessionId,
        refetchInterval: running ? 2000 : (false as const),
      };
    }),
  });
  const traceOf = (turnId: string | undefined): TraceQuery | undefined => {
    const at = turnId ? wanted.indexOf(turnId) : -1;
    return at < 0 ? undefined : traces[at];
  };

  useEffect(() => {
    if (!open) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [open]);
  useEffect(() => {
    setZoom(null);
    setSelected(null);
    setExpanded(new Set());
  }, [nav.sessionId]);

  if (!nav.sessionId) return <NoSessionSelected tab="trace" />;
  if (feed?.status === "error") return <ErrorNotice className="m-4" error={new Error(feed.error)} title="Cannot load this session" />;
  if (!feed || (feed.status === "loading" && feed.events.length === 0))
    return (
      <div className="flex justify-center py-16">
        <Spinner className="text-fg-faint" />
      </div>
    );

  const rangeStart = zoom ? zoom.start : timeline.start;
  const rangeEnd = zoom ? (zoom.end ?? Math.max(now, timeline.end)) : open ? Math.max(now, timeline.end) : timeline.end;
  const span = Math.max(1, rangeEnd - rangeStart);
  const allRows = withSubagentSteps(timeline.rows, expanded, (turnId) => traceOf(turnId)?.data?.modelCalls);
  const rows = zoom ? allRows.filter((row) => row.start <= rangeEnd && (row.end ?? now) >= rangeStart) : allRows;
  const ticks = niceTicks(span);
  const detail = selected ? allRows.find((row) => row.key === selected) : undefined;

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
        // With a row selected the chart keeps up to 45% of the height and its detail takes the rest.
        <div className={cx("flex min-h-0 flex-col overflow-hidden rounded-lg border border-line", detail && "flex-1")} data-testid="trace-chart">
          <VirtualList
            label="Trace timeline"
            className={detail ? "max-h-[45%] min-h-28 shrink-0" : "min-h-0"}
            count={rows.length}
            rowHeight={ROW_HEIGHT}
            header={
              <div className={cx(LABEL_COLUMNS, "sticky top-0 z-10 h-7 border-b border-line bg-surface-muted text-caption text-fg-muted")}>
                <span className="flex items-center px-2">{zoom ? `Zoomed: ${zoom.label}` : `${rows.length} ${rows.length === 1 ? "row" : "rows"}`}</span>
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
                  expanded={row.kind === "subagent" ? expanded.has(row.key) : undefined}
                  onSelect={() => {
                    setSelected(row.key);
                    if (row.kind === "turn" && row.end !== undefined) setZoom(zoom?.key === row.key ? null : row);
                    if (row.kind === "subagent") setExpanded((keys) => toggled(keys, row.key));
                  }}
                />
              );
            }}
          />
          {detail ? <TraceDetail
              row={detail}
              trace={traceOf(detail.turnId)}
              origin={timeline.start}
              now={now}
              actions={detail.cutAfter !== undefined ? <ForkFromEvent sessionId={nav.sessionId} events={feed.events} afterIndex={detail.cutAfter} /> : null}
              onClose={() => setSelected(null)}
            /> : null}
        </div>
      )}
    </div>
  );
}

/** The turn a row belongs to (a subagent's child row: its subagent's); a turn row itself needs no stored content. */
function rowTurn(key: string, rows: readonly TimelineRow[]): string | undefined {
  const row =
    rows.find((candidate) => candidate.key === key) ??
    rows.find((candidate) => candidate.kind === "subagent" && (key.startsWith(`${candidate.key}#`) || key.startsWith(`${candidate.key}:`)));
  return row?.kind === "turn" ? undefined : row?.turnId;
}

function toggled(keys: ReadonlySet<string>, key: string): ReadonlySet<string> {
  const next = new Set(keys);
  if (!next.delete(key)) next.add(key);
  return next;
}

/** The timeline with each opened subagent's own steps (and their tool calls) right under its row, once its turn's content is in. */
function withSubagentSteps(
  rows: readonly TimelineRow[],
  expanded: ReadonlySet<string>,
  callsOf: (turnId: string | undefined) => Parameters<typeof subagentRows>[1] | undefined,
): TimelineRow[] {
  if (expanded.size === 0) return rows as TimelineRow[];
  return rows.flatMap((row) => {
    if (row.kind !== "subagent" || !expanded.has(row.key)) return [row];
    const calls = callsOf(row.turnId);
    return calls ? [row, ...subagentRows(row, calls)] : [row];
  });
}
