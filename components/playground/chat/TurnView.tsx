import { Markdown } from "../../ui/markdown/Markdown.tsx";
import { Badge } from "../../ui/Badge.tsx";
import { AlertIcon } from "../../ui/icons.tsx";
import { ReasoningBlock } from "./ReasoningBlock.tsx";
import { ToolCallCard } from "./ToolCallCard.tsx";
import { TurnFooter } from "./TurnFooter.tsx";
import type { ReactNode } from "react";
import type { ToolPart, TurnItem } from "./transcript.ts";

/** One agent turn: its reasoning, narration, tool calls and answer in the order they happened. */
export function TurnView({ turn, sessionId, toolActions }: { turn: TurnItem; sessionId: string; toolActions: (part: ToolPart) => ReactNode }) {
  // From message.received until the turn shows something (loading, connecting, waiting for the model).
  const working = (turn.status === "starting" || turn.status === "running") && turn.parts.length === 0;
  return (
    <div className="space-y-2.5" data-testid="turn" data-status={turn.status}>
      {turn.status === "queued" ? (
        <p className="text-xs text-fg-muted">Queued{turn.queuePosition !== undefined ? ` (position ${turn.queuePosition})` : ""}…</p>
      ) : null}
      {turn.parts.map((part) => {
        switch (part.kind) {
          case "reasoning":
            return <ReasoningBlock key={part.key} text={part.text} done={part.done} />;
          case "text":
            return (
              <div key={part.key} data-testid="assistant-text" className={part.interim ? "text-fg-soft" : undefined}>
                <Markdown text={part.text} />
                {!part.done ? <span className="ml-0.5 inline-block h-4 w-1.5 translate-y-0.5 animate-soft-pulse bg-accent" aria-hidden="true" /> : null}
              </div>
            );
          case "tool":
            return <ToolCallCard key={part.key} part={part} sessionId={sessionId} actions={toolActions(part)} />;
          case "artifact":
            return (
              <p key={part.key} className="text-xs text-fg-muted">
                <Badge tone="special">artifact</Badge> <span className="font-medium text-fg-soft">{part.title}</span> ({part.artifactKind})
              </p>
            );
        }
      })}
      {working ? (
        <div className="flex gap-1 py-2" role="status" aria-label="Agent is working" data-testid="turn-working">
          {[0, 1, 2].map((dot) => (
            <span key={dot} className="size-1.5 animate-soft-pulse rounded-full bg-tone-neutral-solid" style={{ animationDelay: `${dot * 0.2}s` }} />
          ))}
        </div>
      ) : null}
      {turn.status === "failed" || turn.status === "interrupted" ? (
        <div role="alert" data-testid="turn-error" className="flex gap-2 rounded-md border border-tone-danger-line bg-tone-danger-soft px-3 py-2 text-sm text-tone-danger">
          <AlertIcon className="mt-0.5 size-4 shrink-0" />
          <div className="min-w-0">
            <p className="font-medium">{turn.status === "interrupted" ? "Turn interrupted" : "Turn failed"}{turn.error?.code ? ` · ${turn.error.code}` : ""}</p>
            {turn.error?.message ? <p className="break-words">{turn.error.message}</p> : null}
          </div>
        </div>
      ) : null}
      <TurnFooter turn={turn} />
    </div>
  );
}
