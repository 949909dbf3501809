"use client";
import type { UseQueryResult } from "@tanstack/react-query";
import { isMissingRoute } from "../../api/errors.ts";
import type { InDoubtCall, PendingApproval } from "../../api/types.ts";
import { Button } from "../../ui/Button.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { JsonBlock } from "../../ui/JsonBlock.tsx";
import { Section } from "../../ui/Section.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { AlertIcon, ShieldIcon, WrenchIcon } from "../../ui/icons.tsx";
import { cardClass } from "../../ui/styles.ts";
import { formatDateTime, relativeTime, shortId } from "../../ui/format.ts";
import { useNavigation } from "../navigation.tsx";
import { ApprovalButtons } from "./ApprovalButtons.tsx";
import { InDoubtButtons } from "./InDoubtButtons.tsx";

/** Every parked `needsApproval` call the caller may resolve, across sessions, then the write calls in doubt. */
export function ApprovalsTab({ query }: { query: UseQueryResult<{ approvals: PendingApproval[]; inDoubt?: InDoubtCall[] }> }) {
  const nav = useNavigation();
  const approvals = query.data?.approvals ?? [];
  const inDoubt = query.data?.inDoubt ?? [];
  return (
    <div className="mx-auto max-w-4xl px-4 py-6">
      <Section title="Pending approvals" count={query.isSuccess ? approvals.length : undefined}>
        {query.isError && isMissingRoute(query.error) ? (
          <EmptyState icon={<ShieldIcon className="size-6" />} title="Approvals are not available on this server">
            It does not expose GET /v1/approvals. Parked calls still show inline in Chat.
          </EmptyState>
        ) : query.isError ? (
          <ErrorNotice error={query.error} />
        ) : query.isLoading ? (
          <div className="flex justify-center py-10">
            <Spinner className="text-zinc-400" />
          </div>
        ) : approvals.length === 0 ? (
          <EmptyState icon={<ShieldIcon className="size-6" />} title="Nothing waiting for you">
            Tool calls marked <code className="font-mono">needsApproval</code> park here until someone approves or denies them.
          </EmptyState>
        ) : (
          <ul className="space-y-3">
            {approvals.map((approval) => (
              <li key={approval.approvalId} className={`${cardClass} space-y-3 p-4`} data-testid="approval">
                <div className="flex flex-wrap items-center gap-2">
                  <WrenchIcon className="size-4 text-amber-500" />
                  <span className="font-mono text-sm font-semibold">{approval.name}</span>
                  <span className="text-xs text-fg-muted" title={formatDateTime(approval.createdAt)}>
                    {relativeTime(approval.createdAt)}
                  </span>
                  <span className="ml-auto flex items-center gap-1 text-xs text-fg-muted">
                    in <span className="font-mono">{shortId(approval.sessionId)}</span>
                    <Button size="sm" variant="ghost" onClick={() => nav.openSession(approval.sessionId)}>
                      Open chat
                    </Button>
                  </span>
                </div>
                <JsonBlock value={approval.input ?? {}} />
                <ApprovalButtons sessionId={approval.sessionId} approvalId={approval.approvalId} />
              </li>
            ))}
          </ul>
        )}
      </Section>
      {inDoubt.length > 0 ? (
        <Section title="In doubt" count={inDoubt.length} className="mt-8">
          <p className="mb-3 text-sm text-fg-muted">
            The server stopped while these write calls ran: each may or may not have taken effect, and none was run again. Check, then say which.
          </p>
          <ul className="space-y-3">
            {inDoubt.map((call) => (
              <li key={`${call.sessionId}/${call.toolCallId}`} className={`${cardClass} space-y-3 p-4`} data-testid="in-doubt-call">
                <div className="flex flex-wrap items-center gap-2">
                  <AlertIcon className="size-4 text-amber-500" />
                  <span className="font-mono text-sm font-semibold">{call.name}</span>
                  {call.startedAt ? (
                    <span className="text-xs text-fg-muted" title={formatDateTime(call.startedAt)}>
                      started {relativeTime(call.startedAt)}
                    </span>
                  ) : null}
                  <span className="ml-auto flex items-center gap-1 text-xs text-fg-muted">
                    in <span className="font-mono">{shortId(call.sessionId)}</span>
                    <Button size="sm" variant="ghost" onClick={() => nav.openSession(call.sessionId)}>
                      Open chat
                    </Button>
                  </span>
                </div>
                <JsonBlock value={call.input ?? {}} />
                <InDoubtButtons sessionId={call.sessionId} toolCallId={call.toolCallId} />
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
    </div>
  );
}
