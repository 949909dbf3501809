import type { ApprovalDecision, ToolGate } from "../harness/run-turn.ts";
import type { Logger } from "../host/logger.ts";
import { BdkError, messageOf } from "../protocol/errors.ts";
import type { EventDraft } from "../protocol/events.ts";
import { newApprovalId } from "../protocol/ids.ts";
import type { AsyncStore } from "../store/async-store.ts";
import type { ApprovalRow } from "../store/types.ts";
import { SHUTDOWN } from "./turn-runner.ts";

/** A decision as stored in its row. */
function storedDecision(row: ApprovalRow): ApprovalDecision {
  return { approved: row.status === "approved", by: row.resolvedBy ?? "unknown", reason: row.reason ?? undefined };
}

type Append = (sessionId: string, drafts: EventDraft[]) => Promise<unknown>;

interface Waiter {
  turnId: string;
  resolve(decision: ApprovalDecision): void;
}

/**
 * Parks model-initiated calls that need approval, durably: the request is a
 * row and an event before anyone waits on it, so it survives a restart. A
 * stop or a new message denies it; a graceful shutdown leaves it pending, as
 * a crash would, for the next process to resume.
 */
export class ApprovalDesk {
  private readonly waiters = new Map<string, Waiter>();

  constructor(
    private readonly store: AsyncStore,
    private readonly append: Append,
    private readonly logger: Logger,
    /** A denial nobody awaits (a turn stopped while parked) that could not be recorded. */
    private readonly onLost: (error: unknown) => void,
  ) {}

  /** The gate one turn passes its tool calls through. */
  gateFor(sessionId: string, turnId: string, signal: AbortSignal): ToolGate {
    return async (call, tool, ctx) => {
      const earlier = await this.store.approvals.findByToolCall(turnId, call.toolCallId);
      if (earlier && earlier.status !== "pending") return storedDecision(earlier);
      if (!earlier && !(await tool.needsApproval(call.input, ctx))) return undefined;
      // Shut down before the call reached the desk: park nothing new, the turn ends interrupted.
      if (signal.aborted && signal.reason === SHUTDOWN) throw signal.reason;
      const approvalId = earlier?.id ?? newApprovalId();
      if (!earlier) {
        await this.store.approvals.create({
          id: approvalId,
          sessionId,
          turnId,
          toolCallId: call.toolCallId,
          name: call.name,
          input: call.input,
        });
        await this.append(sessionId, [
          {
            type: "action.approval_requested",
            turnId,
            data: { approvalId, toolCallId: call.toolCallId, name: call.name, input: call.input },
          },
        ]);
      }
      return new Promise<ApprovalDecision>((resolve, reject) => {
        const onAbort = () => {
          // The process is going away: the call stays parked (pending, no decision) and this wait never ends.
          if (signal.reason === SHUTDOWN) return;
          this.waiters.delete(approvalId);
          // The denial is recorded before the turn goes on to end: a follower sees it ahead of the turn's last event.
          void this.denyStopped(approvalId)
            .catch(this.onLost)
            .finally(() => reject(signal.reason));
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
        this.waiters.set(approvalId, {
          turnId,
          resolve: (decision) => {
            signal.removeEventListener("abort", onAbort);
            resolve(decision);
          },
        });
      });
    };
  }

  /**
   * Records a person's decision. Returns true when a live turn was waiting;
   * false when the turn is parked from before a restart and must be resumed.
   */
  async resolve(row: ApprovalRow, decision: ApprovalDecision): Promise<boolean> {
    if (!(await this.decide(row, decision))) {
      throw new BdkError("already_resolved", `Approval ${row.id} was already resolved (${row.status}).`);
    }
    const waiter = this.waiters.get(row.id);
    this.waiters.delete(row.id);
    waiter?.resolve(decision);
    return waiter !== undefined;
  }

  /**
   * Ends the waits of `turnId` whose approval was decided elsewhere (another
   * node's route, which recorded the decision): each goes on with the stored
   * decision. A read that fails is logged; the next call tries again.
   */
  async recheck(turnId: string): Promise<void> {
    for (const [approvalId, waiter] of this.waiters) {
      if (waiter.turnId !== turnId) continue;
      try {
        const row = await this.store.approvals.get(approvalId);
        if (!row || row.status === "pending" || this.waiters.get(approvalId) !== waiter) continue;
        this.waiters.delete(approvalId);
        waiter.resolve(storedDecision(row));
      } catch (error) {
        this.logger.warn(`Could not read approval ${approvalId}: ${messageOf(error)}`, { turnId });
      }
    }
  }

  /** Whether the turn is parked on an approval in this process. */
  isWaiting(turnId: string): boolean {
    for (const waiter of this.waiters.values()) if (waiter.turnId === turnId) return true;
    return false;
  }

  private async denyStopped(approvalId: string): Promise<void> {
    const row = await this.store.approvals.get(approvalId);
    if (row) await this.decide(row, { approved: false, by: "system", reason: "the turn was stopped" });
  }

  private async decide(row: ApprovalRow, decision: ApprovalDecision): Promise<boolean> {
    if (!(await this.store.approvals.resolve(row.id, decision))) return false;
    await this.append(row.sessionId, [
      {
        type: "action.approval_resolved",
        turnId: row.turnId,
        data: {
          approvalId: row.id,
          toolCallId: row.toolCallId,
          approved: decision.approved,
          by: decision.by,
          ...(decision.reason ? { reason: decision.reason } : {}),
        },
      },
    ]);
    if (!decision.approved) this.logDenial(row, decision);
    return true;
  }

  /** A denial changes what the turn does (by a person, or by the system when the turn stopped): the log names the call it refused. */
  private logDenial(row: ApprovalRow, decision: ApprovalDecision): void {
    this.logger.warn(`Approval of tool ${row.name} denied by ${decision.by}${decision.reason ? `: ${decision.reason}` : ""}`, {
      sessionId: row.sessionId,
      turnId: row.turnId,
      toolCallId: row.toolCallId,
      tool: row.name,
    });
  }
}
