import { Badge } from "../../ui/Badge.tsx";
import { formatCount, formatDuration } from "../../ui/format.ts";
import type { TurnItem } from "./transcript.ts";

/** Per-turn facts under the answer: model, tokens, duration; or why it did not finish (stopped, preempted, interrupted). */
export function TurnFooter({ turn }: { turn: TurnItem }) {
  if (turn.status === "starting" || turn.status === "running" || turn.status === "queued") return null;
  const usage = turn.usage;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-caption text-fg-muted tabular-nums" data-testid="turn-footer">
      {turn.model ? <span className="font-mono">{turn.model}</span> : null}
      {usage ? (
        <span title={`${usage.inputTokens ?? 0} input · ${usage.outputTokens ?? 0} output · ${usage.cachedInputTokens ?? 0} cached`}>
          {formatCount(usage.inputTokens)} in · {formatCount(usage.outputTokens)} out
          {usage.cachedInputTokens ? ` · ${formatCount(usage.cachedInputTokens)} cached` : ""}
        </span>
      ) : null}
      {turn.durationMs !== undefined ? <span>{formatDuration(turn.durationMs)}</span> : null}
      {turn.stop ? (
        <Badge tone={turn.stop === "interrupted" ? "warning" : "neutral"} title={turn.error?.message}>
          {turn.stop}
        </Badge>
      ) : null}
    </div>
  );
}
