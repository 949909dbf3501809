"use client";
import type { ReactNode } from "react";
import type { ModelCall, TracedToolCall, TurnTrace } from "../../api/types.ts";
import { Badge } from "../../ui/Badge.tsx";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { JsonBlock } from "../../ui/JsonBlock.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { formatCount, formatDuration } from "../../ui/format.ts";
import { tickLabel } from "./axis.ts";
import type { TimelineRow } from "./timeline.ts";

export interface TraceQuery {
  data?: TurnTrace;
  error?: Error | null;
  isPending: boolean;
}

/** The selected row: when it ran, and what it was: a step's request and response, a tool call's input, output, effect and approval. */
export function TraceDetail({
  row,
  trace,
  origin,
  now,
  actions,
  onClose,
}: {
  row: TimelineRow;
  trace: TraceQuery | undefined;
  origin: number;
  now: number;
  /** Row actions in the detail's header (*Fork from here*). */
  actions?: ReactNode;
  onClose: () => void;
}) {
  const duration = row.durationMs ?? (row.end ?? now) - row.start;
  return (
    <div className="min-h-0 flex-1 overflow-auto border-t border-line bg-surface-muted text-xs scrollbar-thin" data-testid="trace-detail">
      <div className="sticky top-0 flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-line bg-surface-muted px-3 py-2">
        <span className="font-semibold">{row.label}</span>
        <span className="text-fg-muted">{row.kind}</span>
        <span>starts +{tickLabel(row.start - origin)}</span>
        <span data-testid="trace-detail-duration">{formatDuration(duration)}</span>
        {row.tokens ? (
          <span>
            {formatCount(row.tokens.input)} in · {formatCount(row.tokens.output)} out
          </span>
        ) : null}
        <span className={row.status === "error" ? "text-tone-danger" : "text-fg-muted"}>{row.status}</span>
        {row.note ? <span className="min-w-0 truncate text-fg-muted">{row.note}</span> : null}
        <span className="ml-auto flex items-center gap-2">{actions}</span>
        <button type="button" className="text-fg-muted hover:text-fg" onClick={onClose} aria-label="Close details">
          ✕
        </button>
      </div>
      <div className="space-y-3 px-3 py-3">
        <Content row={row} trace={trace} duration={duration} />
      </div>
    </div>
  );
}

function Content({ row, trace, duration }: { row: TimelineRow; trace: TraceQuery | undefined; duration: number }) {
  if (row.kind === "tool" && row.tool) {
    const checked = trace?.data?.toolCalls.find((call) => call.toolCallId === row.tool!.toolCallId);
    return <ToolCallView row={row} checked={checked} duration={duration} />;
  }
  if (row.kind === "subagent" && row.subagent) {
    return (
      <>
        <Field label="Prompt">
          <Pre>{row.subagent.prompt}</Pre>
        </Field>
        {row.subagent.result !== undefined ? (
          <Field label="Result">
            <Pre>{row.subagent.result}</Pre>
          </Field>
        ) : null}
      </>
    );
  }
  if (row.kind !== "step" || row.step === undefined) return null;
  if (!trace || trace.isPending) return <Spinner className="text-fg-faint" />;
  if (trace.error) return <ErrorNotice error={trace.error} title="Cannot load this step's content" />;
  const call = trace.data?.modelCalls.find((candidate) => candidate.scope === (row.scope ?? "") && candidate.step === row.step);
  if (!call) {
    return <p className="text-fg-muted">This step's content was not stored (it was resumed after a restart, is still running, or was recorded by an earlier version).</p>;
  }
  return <ModelCallView call={call} />;
}

function ModelCallView({ call }: { call: ModelCall }) {
  const { request, response } = call;
  const { params } = request;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div className="min-w-0 space-y-3" data-testid="trace-request">
        <h3 className="text-sm font-semibold">Request</h3>
        <Field label="Model">
          <span className="font-mono">
            {params.model} · {params.provider} · {params.modelId}
          </span>
          {hasKeys(params.providerOptions) ? <JsonBlock className="mt-1 w-full" value={params.providerOptions} /> : null}
        </Field>
        <Field label="System prompt">
          <Pre testId="trace-system">{request.system}</Pre>
        </Field>
        <Field label={`Messages (${request.messages.length})`}>
          <ol className="space-y-1.5">
            {request.messages.map((message, index) => (
              <li key={index}>
                <MessageView message={message} />
              </li>
            ))}
          </ol>
        </Field>
        <Field label={`Tools offered (${request.tools.length})`}>
          <ul className="space-y-1" data-testid="trace-tools">
            {request.tools.map((tool) => (
              <li key={tool.name}>
                <details>
                  <summary className="cursor-pointer">
                    <span className="font-mono font-medium">{tool.name}</span>
                    {tool.description ? <span className="text-fg-muted"> — {firstLine(tool.description)}</span> : null}
                  </summary>
                  {tool.description ? <Pre>{tool.description}</Pre> : null}
                  <JsonBlock className="mt-1" value={tool.inputSchema} />
                </details>
              </li>
            ))}
          </ul>
        </Field>
      </div>
      <div className="min-w-0 space-y-3" data-testid="trace-response">
        <h3 className="text-sm font-semibold">Response</h3>
        <Field label="Finish">
          <span className="font-mono">{response.finishReason}</span> · {formatCount(response.usage.inputTokens)} in ·{" "}
          {formatCount(response.usage.outputTokens)} out · {formatCount(response.usage.cachedInputTokens)} cached · {formatDuration(call.durationMs)}
          {response.responseModel ? <span className="text-fg-muted"> · answered by {response.responseModel}</span> : null}
        </Field>
        {response.reasoning ? (
          <Field label="Reasoning">
            <Pre>{response.reasoning}</Pre>
          </Field>
        ) : null}
        <Field label="Text">{response.text ? <Pre>{response.text}</Pre> : <span className="text-fg-muted">none</span>}</Field>
        {response.toolCalls.length > 0 ? (
          <Field label={`Tool calls (${response.toolCalls.length})`}>
            {response.toolCalls.map((action) => (
              <div key={action.toolCallId} className="space-y-1">
                <span className="font-mono font-medium">{action.name}</span>
                <JsonBlock value={action.input} />
              </div>
            ))}
          </Field>
        ) : null}
      </div>
    </div>
  );
}

function ToolCallView({ row, checked, duration }: { row: TimelineRow; checked: TracedToolCall | undefined; duration: number }) {
  const tool = row.tool!;
  const approval = tool.approval;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div className="min-w-0 space-y-3">
        <Field label="Effect">
          {checked ? <Badge tone={checked.effect === "write" ? "warning" : "neutral"}>{checked.effect}</Badge> : <span className="text-fg-muted">not recorded</span>}
          {tool.stubbed ? <Badge tone="special">stub (the tool did not run)</Badge> : null}
        </Field>
        <Field label="Duration">
          {row.durationMs !== undefined ? `${formatDuration(duration)} in the tool` : <span className="text-fg-muted">not measured</span>}
        </Field>
        <Field label="Approval">
          {!approval ? (
            <span className="text-fg-muted">not needed</span>
          ) : !approval.resolved ? (
            <span>requested, waiting</span>
          ) : (
            <span>
              {approval.resolved.approved ? "approved" : "denied"} by {approval.resolved.by} after {formatDuration(approval.resolved.at - approval.requestedAt)}
              {approval.resolved.reason ? `: ${approval.resolved.reason}` : ""}
            </span>
          )}
        </Field>
        <Field label={checked ? "Input (validated)" : "Input"}>
          <div data-testid="trace-tool-input">
            <JsonBlock value={checked ? checked.input : tool.input} />
          </div>
        </Field>
      </div>
      <div className="min-w-0 space-y-3">
        {tool.inDoubt ? (
          <Field label="In doubt">
            <Pre>{tool.inDoubt}</Pre>
          </Field>
        ) : "output" in tool ? (
          <Field label={tool.isError ? "Error" : "Output"}>
            <div data-testid="trace-tool-output">
              <JsonBlock value={tool.output} tone={tool.isError ? "error" : "neutral"} />
            </div>
            {tool.stillRunning ? <p className="text-tone-warning">Left running past its stop or time limit; this result was discarded.</p> : null}
          </Field>
        ) : (
          <Field label="Output">
            <span className="text-fg-muted">no result yet</span>
          </Field>
        )}
      </div>
    </div>
  );
}

/** A message as sent: plain text as text, structured content (parts, tool results) as JSON. */
function MessageView({ message }: { message: unknown }) {
  const { role, content } = message as { role?: string; content?: unknown };
  return (
    <div className="space-y-0.5">
      <Badge tone={role === "user" ? "accent" : role === "tool" ? "success" : role === "system" ? "warning" : "neutral"}>{role ?? "?"}</Badge>
      {typeof content === "string" ? <Pre>{content}</Pre> : <JsonBlock value={content} />}
    </div>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <div className="text-caption font-medium text-fg-muted">{label}</div>
      <div className="flex flex-wrap items-center gap-1.5">{children}</div>
    </div>
  );
}

function Pre({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <pre data-testid={testId} className="max-h-64 w-full overflow-auto rounded-md bg-surface px-2 py-1.5 font-mono text-xs whitespace-pre-wrap break-words ring-1 ring-line scrollbar-thin">
      {children}
    </pre>
  );
}

function hasKeys(value: unknown): boolean {
  return typeof value === "object" && value !== null && Object.keys(value).length > 0;
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0];
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
