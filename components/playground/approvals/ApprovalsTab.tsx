"use client";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
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
            <Spinner className="text-fg-faint" />
          </div>
        ) : approvals.length === 0 ? (
          <EmptyState icon={<ShieldIcon className="size-6" />} title="Nothing waiting for you">
            Tool calls marked <code className="font-mono">needsApproval</code> park here until someone approves or denies them.
          </EmptyState>
        ) : (
          <ul className="space-y-3">
            {approvals.map((approval) => (
              <InboxEntry
                key={approval.approvalId}
                testId="approval"
                icon={<WrenchIcon className="size-4 text-mark-warning" />}
                name={approval.name}
                at={approval.createdAt}
                sessionId={approval.sessionId}
                input={approval.input}
                onOpen={() => nav.openSession(approval.sessionId)}
              >
                <ApprovalButtons sessionId={approval.sessionId} approvalId={approval.approvalId} />
              </InboxEntry>
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
              <InboxEntry
                key={`${call.sessionId}/${call.toolCallId}`}
                testId="in-doubt-call"
                icon={<AlertIcon className="size-4 text-mark-warning" />}
                name={call.name}
                at={call.startedAt}
                atPrefix="started "
                sessionId={call.sessionId}
                input={call.input}
                onOpen={() => nav.openSession(call.sessionId)}
              >
                <InDoubtButtons sessionId={call.sessionId} toolCallId={call.toolCallId} />
              </InboxEntry>
            ))}
          </ul>
        </Section>
      ) : null}
    </div>
  );
}

/** One call waiting for a person: what it is, when, in which session (to open), its input, then the controls. */
function InboxEntry({
  testId,
  icon,
  name,
  at,
  atPrefix = "",
  sessionId,
  input,
  onOpen,
  children,
}: {
  testId: string;
  icon: ReactNode;
  name: string;
  at?: string;
  atPrefix?: string;
  sessionId: string;
  input: unknown;
  onOpen: () => void;
  children: ReactNode;
}) {
  return (
    <li className={`${cardClass} space-y-3 p-4`} data-testid={testId}>
      <div className="flex flex-wrap items-center gap-2">
        {icon}
        <span className="font-mono text-sm font-semibold">{name}</span>
        {at ? (
          <span className="text-xs text-fg-muted" title={formatDateTime(at)}>
            {atPrefix}
            {relativeTime(at)}
          </span>
        ) : null}
        <span className="ml-auto flex items-center gap-1 text-xs text-fg-muted">
          in <span className="font-mono">{shortId(sessionId)}</span>
          <Button size="sm" variant="ghost" onClick={onOpen}>
            Open chat
          </Button>
        </span>
      </div>
      <JsonBlock value={input ?? {}} />
      {children}
    </li>
  );
}
