import type { ReactNode } from "react";
import { Button } from "../../ui/Button.tsx";
import { PlusIcon } from "../../ui/icons.tsx";
import { shortId } from "../../ui/format.ts";
import { cx } from "../../ui/cx.ts";
import type { FeedStatus } from "../session/session-feed.ts";
import { useNavigation } from "../navigation.tsx";

const feedLabel: Record<FeedStatus, { text: string; dot: string }> = {
  loading: { text: "loading", dot: "bg-zinc-400 animate-soft-pulse" },
  live: { text: "live", dot: "bg-emerald-500" },
  reconnecting: { text: "reconnecting", dot: "bg-amber-500 animate-soft-pulse" },
  ended: { text: "ended", dot: "bg-zinc-400" },
  error: { text: "error", dot: "bg-red-500" },
};

/** Which session the chat shows, the stream state, and jumps to its trace and raw events. */
export function SessionBar({
  sessionId,
  title,
  channel,
  status,
  actions,
}: {
  sessionId: string;
  title?: string;
  channel?: string;
  status: FeedStatus | undefined;
  /** More buttons before Trace (compare with the parent, save as eval). */
  actions?: ReactNode;
}) {
  const nav = useNavigation();
  const label = feedLabel[status ?? "loading"];
  return (
    <div className="flex items-center gap-3 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium" title={title}>
          {title || "Untitled session"}
        </p>
        <p className="flex items-center gap-2 truncate text-xs text-zinc-500 dark:text-zinc-400">
          <span className="font-mono" title={sessionId}>
            {shortId(sessionId)}
          </span>
          {channel ? <span>· {channel}</span> : null}
          <span className="inline-flex items-center gap-1" data-testid="feed-status">
            · <span className={cx("size-1.5 rounded-full", label.dot)} /> {label.text}
          </span>
        </p>
      </div>
      <div className="flex shrink-0 items-center gap-1">
        {actions}
        <Button size="sm" variant="ghost" onClick={() => nav.openSession(sessionId, "trace")}>
          Trace
        </Button>
        <Button size="sm" variant="ghost" className="hidden sm:inline-flex" onClick={() => nav.openSession(sessionId, "raw")}>
          Raw
        </Button>
        <Button size="sm" variant="secondary" onClick={nav.newChat}>
          <PlusIcon className="size-3.5" /> New chat
        </Button>
      </div>
    </div>
  );
}
