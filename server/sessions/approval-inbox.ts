import { BdkError } from "../protocol/errors.ts";
import type { Principal } from "../protocol/events.ts";
import type { AsyncStore } from "../store/async-store.ts";
import type { ApprovalRow, ToolCallRow } from "../store/types.ts";
import type { ApprovalDesk } from "./approval-desk.ts";
import type { SessionEventLog } from "./event-log.ts";
import { type InDoubtDecision, resolveInDoubtCall } from "./in-doubt.ts";
import { requireSession } from "./session-access.ts";

export interface ApprovalInboxOptions {
  store: AsyncStore;
  log: SessionEventLog;
  desk: ApprovalDesk;
  /** Runs a turn that was parked on an approval before a restart, now that it is decided. */
  resumeParked(sessionId: string, turnId: string): Promise<unknown>;
}

/**
 * What a person decides (the approvals inbox): the calls parked on an
 * approval and the write calls in doubt, and their resolution. `anyOwner`:
 * the caller sees every principal's sessions (dev on loopback, anonymous),
 * so the inbox it is shown includes calls parked by channel sessions, and
 * it may resolve them.
 */
export class ApprovalInbox {
  constructor(private readonly options: ApprovalInboxOptions) {}

  /** Pending approvals the caller may resolve; `principal` undefined = everyone's. */
  listApprovals(principal: Principal | undefined): Promise<ApprovalRow[]> {
    return this.options.store.approvals.listPending({ principal });
  }

  /** Write tool calls in doubt (a crash cut them off); `principal` undefined = everyone's. */
  listInDoubtCalls(principal: Principal | undefined): Promise<ToolCallRow[]> {
    return this.options.store.toolCalls.listInDoubtWrites({ principal });
  }

  /** Clears a write call in doubt once a person checked it. */
  async resolveInDoubt(
    sessionId: string,
    toolCallId: string,
    decision: InDoubtDecision,
    principal: Principal,
    options: { anyOwner?: boolean } = {},
  ): Promise<ToolCallRow> {
    const { store, log } = this.options;
    if (options.anyOwner) {
      if (!(await store.sessions.get(sessionId))) throw new BdkError("not_found", `No session ${sessionId}.`);
    } else await requireSession(store, sessionId, principal);
    return resolveInDoubtCall(log, sessionId, toolCallId, decision, `${principal.type}:${principal.id}`);
  }

  /** Approve or deny a parked call; 409 when already resolved. Resumes a turn parked before a restart. */
  async resolveApproval(
    sessionId: string,
    approvalId: string,
    decision: { approved: boolean; reason?: string },
    principal: Principal,
    options: { anyOwner?: boolean } = {},
  ): Promise<ApprovalRow> {
    const { store, desk } = this.options;
    if (!options.anyOwner) await requireSession(store, sessionId, principal);
    const row = await store.approvals.get(approvalId);
    if (!row || row.sessionId !== sessionId) {
      throw new BdkError("not_found", `No approval ${approvalId} in session ${sessionId}.`);
    }
    const waited = await desk.resolve(row, { ...decision, by: `${principal.type}:${principal.id}` });
    if (!waited) await this.options.resumeParked(sessionId, row.turnId);
    return (await store.approvals.get(approvalId))!;
  }
}
