import type { ReactNode } from "react";
import { Button } from "../../ui/Button.tsx";
import { PlusIcon } from "../../ui/icons.tsx";
import { shortId } from "../../ui/format.ts";
import { cx } from "../../ui/cx.ts";
import { StatusBadge } from "../../ui/StatusBadge.tsx";
import type { FeedStatus } from "../session/session-feed.ts";
import { type SessionActivity, turnOwnershipText } from "../session/session-status.ts";
import type { StreamKeepalive } from "../../api/types.ts";
import { useNavigation } from "../navigation.tsx";

const feedLabel: Record<FeedStatus, { text: string; dot: string }> = {
  loading: { text: "loading", dot: "bg-tone-neutral-solid animate-soft-pulse" },
  live: { text: "live", dot: "bg-tone-success-solid" },
  reconnecting: { text: "reconnecting", dot: "bg-tone-warning-solid animate-soft-pulse" },
  ended: { text: "ended", dot: "bg-tone-neutral-solid" },
  error: { text: "error", dot: "bg-tone-danger-solid" },
};

/** Which session the chat shows, what it is doing (and on which node, waiting for what), the stream state, and jumps to its trace and raw events. */
export function SessionBar({
  sessionId,
  title,
  channel,
  status,
  activity,
  turn,
  actions,
}: {
  sessionId: string;
  title?: string;
  channel?: string;
  status: FeedStatus | undefined;
  /** Undefined when the session cannot be read: no activity is known. */
  activity: SessionActivity | undefined;
  /** The stream's last keepalive while a turn is queued or running. */
  turn?: StreamKeepalive;
  /** More buttons before Trace (compare with the parent, save as eval). */
  actions?: ReactNode;
}) {
  const nav = useNavigation();
  const label = feedLabel[status ?? "loading"];
  return (
    <div className="flex items-center gap-3 border-b border-line px-4 py-2">
      <div className="min-w-0 flex-1">
        <p className="flex items-center gap-2 text-sm font-medium">
          <span className="truncate" title={title}>
            {title || "Untitled session"}
          </span>
          {activity ? (
            <span data-testid="session-activity" data-activity={activity}>
              <StatusBadge status={activity} />
            </span>
          ) : null}
        </p>
        <p className="flex items-center gap-2 truncate text-xs text-fg-muted">
          <span className="font-mono" title={sessionId}>
            {shortId(sessionId)}
          </span>
          {channel ? <span>· {channel}</span> : null}
          <span className="inline-flex items-center gap-1" data-testid="feed-status">
            · <span className={cx("size-1.5 rounded-full", label.dot)} /> {label.text}
          </span>
          {turn && turnOwnershipText(turn) ? (
            <span className={cx(turn.waiting && "text-tone-warning")} data-testid="turn-ownership" title={turn.turnId}>
              · {turnOwnershipText(turn)}
            </span>
          ) : null}
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
