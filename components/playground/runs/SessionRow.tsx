import type { SessionSummary } from "../../api/types.ts";
import { Button } from "../../ui/Button.tsx";
import { StatusBadge } from "../../ui/StatusBadge.tsx";
import { formatCount, formatDateTime, relativeTime, shortId } from "../../ui/format.ts";
import type { TabIdName } from "../navigation.tsx";

function principalLabel(principal: SessionSummary["principal"]): string | undefined {
  if (!principal) return undefined;
  return typeof principal === "string" ? principal : `${principal.type}:${principal.id}`;
}

/** One session in the Runs list (`status` as sessionStatusLabel says it), with ways to open it. */
export function SessionRow({ session, status, onOpen }: { session: SessionSummary; status: string | undefined; onOpen: (tab: TabIdName) => void }) {
  const usage = session.usage;
  const principal = principalLabel(session.principal);
  return (
    <li data-testid="session-row" className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 hover:bg-surface-soft">
      <div className="w-24 shrink-0">
        <StatusBadge status={status} />
      </div>
      <div className="min-w-0 flex-1 basis-56">
        <button type="button" onClick={() => onOpen("chat")} className="block max-w-full truncate text-left text-sm font-medium hover:text-accent-fg">
          {session.title || <span className="text-fg-muted italic">Untitled session</span>}
        </button>
        <p className="flex flex-wrap items-center gap-x-2 text-xs text-fg-muted">
          <span className="font-mono" title={session.id}>
            {shortId(session.id)}
          </span>
          {session.channel ? <span>· {session.channel}</span> : null}
          {session.mode ? <span>· {session.mode}</span> : null}
          {session.parentId ? (
            <span title={`Forked from ${session.parentId} at event ${session.forkedAt}`} data-testid="fork-of">
              · fork of <span className="font-mono">{shortId(session.parentId)}</span>
            </span>
          ) : null}
          {principal ? <span className="hidden sm:inline">· {principal}</span> : null}
        </p>
      </div>
      <div className="w-28 shrink-0 text-xs text-fg-muted tabular-nums">
        <p title={formatDateTime(session.updatedAt)}>{relativeTime(session.updatedAt)}</p>
        {usage ? (
          <p title="input · output tokens">
            {formatCount(usage.inputTokens)} · {formatCount(usage.outputTokens)} tok
          </p>
        ) : null}
      </div>
      <div className="flex shrink-0 gap-1">
        <Button size="sm" variant="secondary" onClick={() => onOpen("chat")}>
          Chat
        </Button>
        <Button size="sm" variant="ghost" onClick={() => onOpen("trace")}>
          Trace
        </Button>
        <Button size="sm" variant="ghost" onClick={() => onOpen("raw")}>
          Raw
        </Button>
      </div>
    </li>
  );
}
