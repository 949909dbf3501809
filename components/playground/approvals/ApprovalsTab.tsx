"use client";
import type { UseQueryResult } from "@tanstack/react-query";
import { isMissingRoute } from "../../api/errors.ts";
import type { PendingApproval } from "../../api/types.ts";
import { Button } from "../../ui/Button.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { JsonBlock } from "../../ui/JsonBlock.tsx";
import { Section } from "../../ui/Section.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { ShieldIcon, WrenchIcon } from "../../ui/icons.tsx";
import { cardClass } from "../../ui/styles.ts";
import { formatDateTime, relativeTime, shortId } from "../../ui/format.ts";
import { useNavigation } from "../navigation.tsx";
import { ApprovalButtons } from "./ApprovalButtons.tsx";

/** Every parked `needsApproval` call the caller may resolve, across sessions. */
export function ApprovalsTab({ query }: { query: UseQueryResult<{ approvals: PendingApproval[] }> }) {
  const nav = useNavigation();
  const approvals = query.data?.approvals ?? [];
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
    </div>
  );
}
