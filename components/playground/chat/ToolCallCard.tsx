"use client";
import { type ReactNode, useId, useState } from "react";
import { Badge } from "../../ui/Badge.tsx";
import { JsonBlock } from "../../ui/JsonBlock.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { AlertIcon, ChevronIcon, RobotIcon, ShieldIcon, WrenchIcon } from "../../ui/icons.tsx";
import { cx } from "../../ui/cx.ts";
import { formatDuration, previewJson } from "../../ui/format.ts";
import { ApprovalButtons } from "../approvals/ApprovalButtons.tsx";
import { InDoubtButtons } from "../approvals/InDoubtButtons.tsx";
import { ConnectButton } from "./ConnectButton.tsx";
import type { ToolPart } from "./transcript.ts";
import { inDoubtFinding } from "../approvals/in-doubt-finding.ts";

const frame: Record<ToolPart["status"], string> = {
  running: "border-line",
  awaiting_approval: "border-tone-warning-line",
  awaiting_authorization: "border-tone-warning-line",
  done: "border-line",
  error: "border-tone-danger-line-strong",
  denied: "border-line-strong",
  in_doubt: "border-tone-warning-line",
};

/** One tool call inline in the chat: name, arguments, then output or error, approval controls while parked. */
export function ToolCallCard({ part, sessionId, actions }: { part: ToolPart; sessionId: string; actions?: ReactNode }) {
  const needsAttention =
    part.status === "awaiting_approval" || part.status === "awaiting_authorization" || part.status === "error" || (part.status === "in_doubt" && !part.inDoubt?.resolved);
  const [open, setOpen] = useState<boolean | null>(null);
  const expanded = open ?? needsAttention;
  const bodyId = useId();
  const label = part.subagent ? `Subagent · ${part.subagent.name}` : part.name;

  return (
    <div data-testid="tool-call" data-tool={part.name} data-status={part.status} className={cx("overflow-hidden rounded-lg border bg-surface-card text-sm", frame[part.status])}>
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={bodyId}
        onClick={() => setOpen(!expanded)}
        className="flex w-full items-center gap-2 px-3 py-2 text-left hover:bg-surface-card-hover"
      >
        <ChevronIcon className={cx("size-3.5 shrink-0 text-fg-dim transition-transform", expanded && "rotate-90")} />
        {part.subagent ? <RobotIcon className="size-4 shrink-0 text-mark-special" /> : <WrenchIcon className="size-4 shrink-0 text-fg-muted" />}
        <span className="shrink-0 font-mono text-body-sm font-medium">{label}</span>
        <span className="min-w-0 flex-1 truncate font-mono text-xs text-fg-muted">{expanded ? "" : previewJson(part.input, 120)}</span>
        <ToolStatus part={part} />
      </button>
      {expanded ? (
        <div id={bodyId} className="space-y-3 border-t border-surface-hover px-3 py-3">
          <div>
            <p className="mb-1 text-caption font-semibold tracking-wide text-fg-muted uppercase">Arguments</p>
            <JsonBlock value={part.input ?? {}} />
          </div>
          {part.status === "awaiting_approval" && part.approval ? (
            <div className="rounded-md bg-tone-warning-soft p-3">
              <p className="mb-2 flex items-center gap-1.5 text-xs font-medium text-tone-warning">
                <ShieldIcon className="size-3.5" /> This call needs your approval
              </p>
              <ApprovalButtons sessionId={sessionId} approvalId={part.approval.approvalId} />
            </div>
          ) : null}
          {part.status === "awaiting_authorization" && part.authorization ? (
            <div className="rounded-md bg-tone-warning-soft p-3">
              <p className="mb-2 flex items-center gap-1.5 text-xs font-medium text-tone-warning">
                <ShieldIcon className="size-3.5" /> {part.authorization.connection} needs you to sign in before this call can run
              </p>
              <ConnectButton connection={part.authorization.connection} authorizePath={part.authorization.authorizePath} />
            </div>
          ) : null}
          {part.status === "in_doubt" && part.inDoubt ? <InDoubtNotice part={part} inDoubt={part.inDoubt} sessionId={sessionId} /> : null}
          {part.approval?.resolved ? (
            <p className="text-xs text-fg-muted">
              {part.approval.resolved.approved ? "Approved" : "Denied"}
              {part.approval.resolved.by ? ` by ${part.approval.resolved.by}` : ""}
              {part.approval.resolved.reason ? `: “${part.approval.resolved.reason}”` : ""}
            </p>
          ) : null}
          {part.subagent?.result !== undefined ? (
            <div>
              <p className="mb-1 text-caption font-semibold tracking-wide text-fg-muted uppercase">Subagent result</p>
              <JsonBlock value={part.subagent.result} tone={part.subagent.isError ? "error" : "neutral"} />
            </div>
          ) : null}
          {part.output !== undefined ? (
            <div>
              <p className={cx("mb-1 text-caption font-semibold tracking-wide uppercase", part.status === "error" ? "text-tone-danger" : "text-fg-muted")}>
                {part.status === "error" ? "Error" : "Output"}
              </p>
              <JsonBlock value={part.output} tone={part.status === "error" ? "error" : "neutral"} />
            </div>
          ) : null}
          {actions ? <div className="flex justify-end">{actions}</div> : null}
        </div>
      ) : null}
    </div>
  );
}

/** Why the call is in doubt, and who cleared it or (for a write call) the controls to clear it. */
function InDoubtNotice({ part, inDoubt, sessionId }: { part: ToolPart; inDoubt: NonNullable<ToolPart["inDoubt"]>; sessionId: string }) {
  return (
    <div className="rounded-md bg-tone-warning-soft p-3" data-testid="in-doubt">
      <p className="mb-2 flex items-start gap-1.5 text-xs font-medium text-tone-warning">
        <AlertIcon className="mt-px size-3.5 shrink-0" /> {inDoubt.message}
      </p>
      {inDoubt.resolved ? (
        <p className="text-xs text-fg-muted" data-testid="in-doubt-resolved">
          Checked: {inDoubtFinding(inDoubt.resolved.resolution)} (by {inDoubt.resolved.by})
          {inDoubt.resolved.note ? `: “${inDoubt.resolved.note}”` : ""}
        </p>
      ) : inDoubt.effect === "write" ? (
        <InDoubtButtons sessionId={sessionId} toolCallId={part.toolCallId} />
      ) : null}
    </div>
  );
}

function ToolStatus({ part }: { part: ToolPart }) {
  switch (part.status) {
    case "running":
      return (
        <span className="flex shrink-0 items-center gap-1.5 text-xs text-tone-info-bright">
          <Spinner className="size-3" label="Running" /> running
        </span>
      );
    case "awaiting_approval":
      return <Badge tone="warning">needs approval</Badge>;
    case "awaiting_authorization":
      return <Badge tone="warning">needs sign-in</Badge>;
    case "error":
      return (
        <span className="flex shrink-0 items-center gap-1.5">
          <Badge tone="danger">error</Badge>
          <Duration ms={part.durationMs} />
        </span>
      );
    case "denied":
      return <Badge tone="neutral">denied</Badge>;
    case "in_doubt":
      return part.inDoubt?.resolved ? (
        <Badge tone="neutral">{part.inDoubt.resolved.resolution === "done" ? "checked: done" : "checked: not done"}</Badge>
      ) : (
        <Badge tone="warning" title={part.inDoubt?.message}>
          in doubt
        </Badge>
      );
    case "done":
      return (
        <span className="flex shrink-0 items-center gap-1.5">
          {part.stubbed ? (
            <Badge tone="info" title="The fork's stub answered; the tool did not run">
              stubbed
            </Badge>
          ) : null}
          <Badge tone="success">ok</Badge>
          <Duration ms={part.durationMs} />
        </span>
      );
  }
}

function Duration({ ms }: { ms: number | undefined }) {
  return ms === undefined ? null : <span className="text-xs tabular-nums text-fg-muted">{formatDuration(ms)}</span>;
}
