"use client";
import { useMemo, useState } from "react";
import { isMissingRoute } from "../../api/errors.ts";
import type { LogLine } from "../../api/types.ts";
import { Badge, type Tone } from "../../ui/Badge.tsx";
import { Chip } from "../../ui/Chip.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { JsonBlock } from "../../ui/JsonBlock.tsx";
import { VirtualList } from "../../ui/VirtualList.tsx";
import { cx } from "../../ui/cx.ts";
import { formatTime, previewJson, shortId } from "../../ui/format.ts";
import { inputClass } from "../../ui/styles.ts";
import { useNavigation } from "../navigation.tsx";
import { matchesSearch, sessionOfLine } from "./log-lines.ts";
import { useLogTail } from "./useLogTail.ts";

const LEVELS = ["debug", "info", "warn", "error"] as const;
const tones: Record<string, Tone> = { debug: "neutral", info: "info", warn: "warning", error: "danger" };
const ROW_HEIGHT = 26;

function extra(line: LogLine): unknown {
  if (line.data && Object.keys(line.data).length) return line.data;
  const { at: _at, level: _level, msg: _msg, id: _id, data: _data, ...rest } = line;
  return Object.keys(rest).length ? rest : undefined;
}

/** Recent server log lines, polled every 2 s, filterable by level and text; a line about a session opens it. */
export function LogsTab() {
  const nav = useNavigation();
  const { lines, query } = useLogTail();
  const [levels, setLevels] = useState<string[]>(["info", "warn", "error"]);
  const [search, setSearch] = useState("");
  const [follow, setFollow] = useState(true);
  const [selected, setSelected] = useState<LogLine | null>(null);
  const shown = useMemo(() => lines.filter((line) => levels.includes(line.level) && matchesSearch(line, search)), [lines, levels, search]);
  const counts = useMemo(() => {
    const map: Record<string, number> = {};
    for (const line of lines) map[line.level] = (map[line.level] ?? 0) + 1;
    return map;
  }, [lines]);

  if (query.isError && isMissingRoute(query.error))
    return (
      <div className="mx-auto max-w-4xl px-4 py-6">
        <EmptyState title="Logs are not available on this server">It does not expose GET /v1/logs.</EmptyState>
      </div>
    );

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 px-4 py-4">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-sm font-semibold">Server logs</h2>
        <span className="flex items-center gap-1 text-xs text-fg-muted">
          <span className={cx("size-1.5 rounded-full", query.isError ? "bg-tone-danger-solid" : "bg-tone-success-solid animate-soft-pulse")} />
          {query.isError ? "polling failed" : "polling every 2 s"}
        </span>
        <div className="flex flex-wrap gap-1.5" role="group" aria-label="Filter by level">
          {LEVELS.map((level) => (
            <Chip key={level} pressed={levels.includes(level)} onToggle={() => setLevels((current) => (current.includes(level) ? current.filter((l) => l !== level) : [...current, level]))}>
              {level} <span className="tabular-nums opacity-60">{counts[level] ?? 0}</span>
            </Chip>
          ))}
        </div>
        <input
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder="Search messages and fields"
          aria-label="Search logs"
          className={cx(inputClass, "h-7 w-56 max-w-full text-xs")}
        />
        <label className="ml-auto flex items-center gap-1.5 text-xs text-fg-muted">
          <input type="checkbox" className="accent-accent" checked={follow} onChange={(event) => setFollow(event.target.checked)} />
          Follow
        </label>
      </div>
      {query.isError ? <ErrorNotice error={query.error} /> : null}
      {shown.length === 0 ? (
        <EmptyState title={lines.length ? (search.trim() ? `No line matches “${search.trim()}”` : "No lines at the selected levels") : "No log lines yet"} className="flex-1" />
      ) : (
        <VirtualList
          label="Log lines"
          className="min-h-0 flex-1 rounded-lg border border-line font-mono text-xs"
          count={shown.length}
          rowHeight={ROW_HEIGHT}
          followTail={follow}
          renderRow={(index) => {
            const line = shown[index];
            const data = extra(line);
            const sessionId = sessionOfLine(line);
            return (
              <div data-testid="log-line" data-level={line.level} className={cx("flex h-full w-full items-center", line === selected ? "bg-accent-soft" : "hover:bg-surface-muted")}>
                <button type="button" onClick={() => setSelected(line === selected ? null : line)} className="flex h-full min-w-0 flex-1 items-center gap-3 px-3 text-left">
                  <span className="hidden w-20 shrink-0 text-fg-muted tabular-nums sm:inline">{formatTime(line.at)}</span>
                  <span className="w-12 shrink-0">
                    <Badge tone={tones[line.level] ?? "neutral"}>{line.level}</Badge>
                  </span>
                  <span className="min-w-0 truncate text-fg" title={line.msg}>
                    {line.msg}
                  </span>
                  {data !== undefined ? <span className="min-w-0 flex-1 truncate text-fg-muted">{previewJson(data, 300)}</span> : null}
                </button>
                {sessionId ? (
                  <button
                    type="button"
                    onClick={() => nav.openSession(sessionId)}
                    title={`Open session ${sessionId}`}
                    aria-label={`Open session ${sessionId}`}
                    className="mr-2 shrink-0 rounded-badge px-1.5 text-accent-fg hover:bg-accent-soft"
                  >
                    {shortId(sessionId)} →
                  </button>
                ) : null}
              </div>
            );
          }}
        />
      )}
      {selected && extra(selected) !== undefined ? (
        <div className="max-h-60 overflow-auto rounded-lg border border-line p-2">
          <JsonBlock value={{ at: selected.at, level: selected.level, msg: selected.msg, ...(extra(selected) as object) }} />
        </div>
      ) : null}
    </div>
  );
}
