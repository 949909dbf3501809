"use client";
import { Button } from "../../ui/Button.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { StatusBadge } from "../../ui/StatusBadge.tsx";
import { relativeTime, shortId } from "../../ui/format.ts";
import { useApprovals, useSessions } from "../hooks.ts";
import { sessionStatusLabel } from "../session/session-status.ts";
import { useNavigation, type TabIdName } from "../navigation.tsx";

/** Trace and Raw need a session: offer the most recent ones. */
export function NoSessionSelected({ tab }: { tab: TabIdName }) {
  const nav = useNavigation();
  const sessions = useSessions("", 8, false);
  const list = sessions.data?.sessions ?? [];
  const pending = useApprovals(false).data?.approvals ?? [];
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <EmptyState title="No session selected" action={<Button size="sm" onClick={() => nav.setTab("runs")}>Browse runs</Button>}>
        Pick a recent session, open one from Runs, or start a chat.
      </EmptyState>
      {list.length ? (
        <ul className="mt-4 space-y-1">
          {list.map((session) => (
            <li key={session.id}>
              <button
                type="button"
                onClick={() => nav.openSession(session.id, tab)}
                className="flex w-full items-center gap-3 rounded-md px-3 py-2 text-left text-sm hover:bg-surface-hover"
              >
                <StatusBadge status={sessionStatusLabel(session, pending)} />
                <span className="min-w-0 flex-1 truncate">{session.title || shortId(session.id)}</span>
                <span className="text-xs text-fg-muted">{relativeTime(session.updatedAt)}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
