"use client";
import { useEffect, useMemo, useState } from "react";
import type { AnyBdkEvent } from "../../api/types.ts";
import { Badge } from "../../ui/Badge.tsx";
import { Button } from "../../ui/Button.tsx";
import { Chip } from "../../ui/Chip.tsx";
import { CopyButton } from "../../ui/CopyButton.tsx";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { JsonBlock } from "../../ui/JsonBlock.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { VirtualList } from "../../ui/VirtualList.tsx";
import { XIcon } from "../../ui/icons.tsx";
import { cx } from "../../ui/cx.ts";
import { formatTime, shortId } from "../../ui/format.ts";
import { useNavigation } from "../navigation.tsx";
import type { FeedSnapshot } from "../session/session-feed.ts";
import { ForkFromEvent } from "../iterate/ForkFromEvent.tsx";
import { NoSessionSelected } from "../shell/NoSessionSelected.tsx";
import { eventPreview, eventTone } from "./event-preview.ts";

const ROW_HEIGHT = 30;

/** The selected session's events, filterable by type, copyable as NDJSON; windowed so thousands stay fast. */
export function RawTab({ feed }: { feed: FeedSnapshot | null }) {
  const nav = useNavigation();
  const [types, setTypes] = useState<string[]>([]);
  const [selected, setSelected] = useState<AnyBdkEvent | null>(null);
  const [follow, setFollow] = useState(true);
  const events = feed?.events;
  const version = feed?.version;

  useEffect(() => {
    setTypes([]);
    setSelected(null);
  }, [nav.sessionId]);

  const counts = useMemo(() => {
    const map = new Map<string, number>();
    for (const event of events ?? []) map.set(event.type, (map.get(event.type) ?? 0) + 1);
    return [...map.entries()].sort((a, b) => a[0].localeCompare(b[0]));
  }, [events, version]);

  const filtered = useMemo(() => (types.length === 0 ? (events ?? []).slice() : (events ?? []).filter((event) => types.includes(event.type))), [events, version, types]);

  if (!nav.sessionId) return <NoSessionSelected tab="raw" />;
  if (feed?.status === "error") return <ErrorNotice className="m-4" error={new Error(feed.error)} title="Cannot load this session" />;

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 px-4 py-4">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-sm font-semibold">
          Events <span className="font-mono text-xs font-normal text-fg-muted">{shortId(nav.sessionId)}</span>
        </h2>
        <span className="text-xs text-fg-muted tabular-nums" data-testid="raw-count">
          {filtered.length === (events?.length ?? 0) ? `${filtered.length} events` : `${filtered.length} of ${events?.length ?? 0}`}
        </span>
        {!feed || feed.status === "loading" ? <Spinner className="size-3 text-fg-dim" /> : null}
        <div className="ml-auto flex items-center gap-1">
          <label className="flex items-center gap-1.5 text-xs text-fg-muted">
            <input type="checkbox" className="accent-accent-solid" checked={follow} onChange={(event) => setFollow(event.target.checked)} />
            Follow
          </label>
          <CopyButton label="Copy NDJSON" text={() => filtered.map((event) => JSON.stringify(event)).join("\n") + "\n"} />
          <Button size="sm" variant="ghost" onClick={() => nav.openSession(nav.sessionId!, "trace")}>
            Trace
          </Button>
        </div>
      </div>
      <div className="flex max-h-24 flex-wrap gap-1.5 overflow-y-auto" role="group" aria-label="Filter by event type">
        {counts.map(([type, count]) => (
          <Chip key={type} pressed={types.includes(type)} onToggle={() => setTypes((current) => (current.includes(type) ? current.filter((t) => t !== type) : [...current, type]))}>
            {type} <span className="tabular-nums opacity-60">{count}</span>
          </Chip>
        ))}
        {types.length ? (
          <Button size="sm" variant="ghost" onClick={() => setTypes([])}>
            Clear
          </Button>
        ) : null}
      </div>
      <div className="flex min-h-0 flex-1 flex-col gap-3 lg:flex-row">
        <VirtualList
          label="Session events"
          className="min-h-48 flex-1 rounded-lg border border-line font-mono text-xs"
          count={filtered.length}
          rowHeight={ROW_HEIGHT}
          followTail={follow}
          renderRow={(index) => {
            const event = filtered[index];
            return (
              <button
                type="button"
                data-testid="raw-row"
                onClick={() => setSelected(event)}
                className={cx(
                  "flex h-full w-full items-center gap-3 border-b border-line-faint px-3 text-left",
                  selected?.index === event.index ? "bg-accent-soft" : "hover:bg-surface-muted",
                )}
              >
                <span className="w-8 shrink-0 text-right text-fg-dim tabular-nums sm:w-10">{event.index}</span>
                <span className="hidden w-20 shrink-0 text-fg-muted tabular-nums sm:inline">{formatTime(event.at)}</span>
                <span className="w-36 shrink-0 overflow-hidden sm:w-48">
                  <Badge tone={eventTone(event.type)}>{event.type}</Badge>
                </span>
                <span className="min-w-0 flex-1 truncate text-fg-muted">{eventPreview(event)}</span>
              </button>
            );
          }}
        />
        {selected ? (
          <aside className="flex max-h-[45%] min-h-0 flex-col rounded-lg border border-line lg:max-h-none lg:w-[28rem]" aria-label="Event detail">
            <div className="flex items-center gap-2 border-b border-line px-3 py-2">
              <Badge tone={eventTone(selected.type)}>{selected.type}</Badge>
              <span className="text-xs text-fg-muted">#{selected.index}</span>
              <span className="ml-auto" />
              <ForkFromEvent sessionId={nav.sessionId} events={events ?? []} afterIndex={selected.index} />
              <CopyButton text={() => JSON.stringify(selected, null, 2)} />
              <button type="button" aria-label="Close detail" className="rounded p-1 text-fg-muted hover:bg-surface-hover" onClick={() => setSelected(null)}>
                <XIcon className="size-3.5" />
              </button>
            </div>
            <div className="min-h-0 flex-1 overflow-auto p-2">
              <JsonBlock value={selected} className="[&_pre]:max-h-none" />
            </div>
          </aside>
        ) : null}
      </div>
    </div>
  );
}
