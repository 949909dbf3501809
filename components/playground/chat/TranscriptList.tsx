"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useEffect, useLayoutEffect, useRef, type ReactNode } from "react";
import type { ChatNote } from "./notes.ts";
import { NoteView } from "./NoteView.tsx";
import type { ToolPart, TranscriptItem, UserItem } from "./transcript.ts";
import { TurnView } from "./TurnView.tsx";
import { UserMessage } from "./UserMessage.tsx";

export type TranscriptEntry = { item: TranscriptItem } | { note: ChatNote };

/** Rows of the chat before the first message: about the size of a short turn until measured. */
const ESTIMATED_ROW_PX = 160;

/**
 * The chat's messages and turns, windowed: only the rows in view (and a few
 * around) are in the DOM, each measured once rendered, so a session of
 * thousands of events opens as fast as a short one. It stays scrolled to the
 * bottom while new rows arrive, unless the user scrolled up; `followKey`
 * changing (a send) sticks it to the bottom again.
 *
 * Memoised: its props change with the session's events, so the chat's other
 * re-renders skip it. Its box is sized by the chat's column, never by its
 * rows, so it is strictly contained: work beside it (a keystroke in the
 * composer) never lays out or repaints the rows.
 */
export const TranscriptList = memo(function TranscriptList({
  entries,
  sessionId,
  busy,
  header,
  footer,
  followKey,
  messageActions,
  toolActions,
  onOpenSession,
}: {
  entries: TranscriptEntry[];
  sessionId: string;
  busy: boolean;
  /** Above the rows (the welcome, an error). */
  header: ReactNode;
  /** Below the rows (the message being sent). */
  footer: ReactNode;
  followKey: number;
  messageActions: (item: UserItem) => ReactNode;
  /** Under a tool call card (Stub this result). */
  toolActions: (part: ToolPart) => ReactNode;
  onOpenSession: (id: string) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: (index) => keyOf(entries[index]),
    overscan: 6,
  });
  const totalSize = virtualizer.getTotalSize();

  useEffect(() => {
    stickToBottom.current = true;
  }, [sessionId, followKey]);
  // New rows, rows measured taller than estimated, the pending message: all move the bottom.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && stickToBottom.current) element.scrollTop = element.scrollHeight;
  }, [totalSize, entries.length, footer, sessionId, followKey]);

  return (
    <div
      ref={scroller}
      data-testid="chat-transcript"
      className="min-h-0 flex-1 overflow-y-auto scrollbar-thin [contain:strict] [overflow-anchor:none]"
      onScroll={(event) => {
        const element = event.currentTarget;
        stickToBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
      }}
    >
      <div className="mx-auto max-w-3xl px-4 py-6" aria-live="polite" aria-busy={busy}>
        {header}
        <div className="relative" style={{ height: totalSize }}>
          {virtualizer.getVirtualItems().map((row) => (
            <div
              key={row.key}
              ref={virtualizer.measureElement}
              data-index={row.index}
              className="absolute inset-x-0 top-0 pb-6"
              style={{ transform: `translateY(${row.start}px)` }}
            >
              <Entry entry={entries[row.index]} sessionId={sessionId} messageActions={messageActions} toolActions={toolActions} onOpenSession={onOpenSession} />
            </div>
          ))}
        </div>
        {footer}
      </div>
    </div>
  );
});

function Entry({
  entry,
  sessionId,
  messageActions,
  toolActions,
  onOpenSession,
}: {
  entry: TranscriptEntry;
  sessionId: string;
  messageActions: (item: UserItem) => ReactNode;
  toolActions: (part: ToolPart) => ReactNode;
  onOpenSession: (id: string) => void;
}) {
  if ("note" in entry) return <NoteView note={entry.note} onOpenSession={onOpenSession} />;
  const item = entry.item;
  if (item.kind === "user") return <UserMessage text={item.text} files={item.files} actions={messageActions(item)} />;
  if (item.kind === "turn") return <TurnView turn={item} sessionId={sessionId} toolActions={toolActions} />;
  return <p className={item.tone === "error" ? "text-center text-xs text-tone-danger" : "text-center text-xs text-fg-muted"}>{item.text}</p>;
}

function keyOf(entry: TranscriptEntry): string {
  return "note" in entry ? `note-${entry.note.id}` : entry.item.key;
}
