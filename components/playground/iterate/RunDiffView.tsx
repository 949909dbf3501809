"use client";
import { useQuery } from "@tanstack/react-query";
import type { DiffTurn } from "../../api/types.ts";
import { Badge } from "../../ui/Badge.tsx";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { JsonBlock } from "../../ui/JsonBlock.tsx";
import { Modal } from "../../ui/Modal.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { cx } from "../../ui/cx.ts";
import { formatCount, formatDuration, shortId } from "../../ui/format.ts";
import { useApi } from "../api-context.tsx";

const signed = (value: number, format: (n: number) => string) => (value > 0 ? `+${format(value)}` : value < 0 ? `−${format(-value)}` : "±0");

function TurnColumn({ turn, changed }: { turn: DiffTurn | undefined; changed: { message: boolean; reply: boolean; tools: boolean } }) {
  if (!turn) return <p className="text-xs text-fg-muted">no turn</p>;
  const mark = (isChanged: boolean) => cx("rounded p-2", isChanged ? "bg-tone-warning-soft ring-1 ring-tone-warning-line" : "bg-surface-muted");
  return (
    <div className="min-w-0 space-y-2 text-xs">
      <p className={cx(mark(changed.message), "whitespace-pre-wrap break-words")} data-testid="diff-message" data-changed={changed.message}>
        <span className="font-medium">User: </span>
        {turn.message}
      </p>
      <div className={mark(changed.tools)} data-testid="diff-tool-calls" data-changed={changed.tools}>
        {turn.toolCalls.length === 0 ? <span className="text-fg-muted">no tool calls</span> : null}
        {turn.toolCalls.map((call, index) => (
          <div key={index} className="space-y-1">
            <p className="font-mono">
              {call.name} {call.isError ? <Badge tone="danger">error</Badge> : null}
              {call.durationMs !== undefined ? <span className="text-fg-muted"> · {formatDuration(call.durationMs)}</span> : null}
            </p>
            <JsonBlock value={call.input} />
            {"output" in call ? <JsonBlock value={call.output} tone={call.isError ? "error" : "neutral"} /> : null}
          </div>
        ))}
      </div>
      <p className={cx(mark(changed.reply), "whitespace-pre-wrap break-words")} data-testid="diff-reply" data-changed={changed.reply}>
        {turn.reply || <span className="text-fg-muted">no reply</span>}
      </p>
      <p className="text-fg-muted">
        {turn.model ?? "?"} · {formatCount(turn.usage.inputTokens)} in / {formatCount(turn.usage.outputTokens)} out · {formatDuration(turn.durationMs)} · {turn.status}
      </p>
    </div>
  );
}

/** Two runs side by side from where they part: messages, tool calls, tokens, time; what differs is marked. */
export function RunDiffView({ before, after, onClose }: { before: string; after: string; onClose: () => void }) {
  return (
    <Modal title={`Compare ${shortId(before)} → ${shortId(after)}`} onClose={onClose}>
      <RunDiffBody before={before} after={after} />
    </Modal>
  );
}

/** The comparison of two sessions' runs, turn by turn (in the fork dialog's modal, or inline in an eval case's diff). */
export function RunDiffBody({ before, after }: { before: string; after: string }) {
  const api = useApi();
  const diff = useQuery({ queryKey: ["run-diff", api.base, before, after], queryFn: ({ signal }) => api.diff(before, after, signal), refetchInterval: 2000 });
  const data = diff.data;
  return (
    <>
      {diff.isError ? <ErrorNotice error={diff.error} /> : null}
      {!data ? (
        diff.isError ? null : <Spinner className="text-fg-faint" />
      ) : (
        <div className="space-y-4" data-testid="run-diff">
          <p className="text-xs text-fg-muted">
            {data.identical ? "The runs did the same." : "Changed parts are marked."} From event {data.before.from}: tokens in{" "}
            {signed(data.delta.inputTokens, formatCount)}, out {signed(data.delta.outputTokens, formatCount)}, time {signed(data.delta.durationMs, formatDuration)}.
          </p>
          <div className="grid gap-3 text-xs font-medium sm:grid-cols-2">
            <p>
              Before <span className="font-mono font-normal text-fg-muted">{shortId(before)}</span>
            </p>
            <p>
              After <span className="font-mono font-normal text-fg-muted">{shortId(after)}</span>
            </p>
          </div>
          {data.turns.map((pair) => (
            <div key={pair.position} className="grid gap-3 border-t border-line pt-3 sm:grid-cols-2">
              {[pair.before, pair.after].map((turn, side) => (
                <TurnColumn key={side} turn={turn} changed={{ message: pair.messageChanged, reply: pair.replyChanged, tools: pair.toolCallsChanged }} />
              ))}
            </div>
          ))}
        </div>
      )}
    </>
  );
}
