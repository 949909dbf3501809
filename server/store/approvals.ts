import { and, type Column, eq, getTableColumns, type SQL } from "drizzle-orm";
import type { Principal } from "../protocol/events.ts";
import { newApprovalId } from "../protocol/ids.ts";
import type { StoreContext } from "./context.ts";
import { visibleOf } from "./owned-by.ts";
import { approvals, sessions } from "./schema.ts";
import type { ApprovalRow } from "./types.ts";

export interface ApprovalCreate {
  id?: string;
  sessionId: string;
  turnId: string;
  toolCallId: string;
  name: string;
  input: unknown;
}

export interface ApprovalResolution {
  approved: boolean;
  by: string;
  reason?: string | null;
}

export interface PendingFilter {
  principal?: Principal;
  sessionId?: string;
}

export interface ApprovalsRepository {
  create(input: ApprovalCreate): ApprovalRow;
  get(id: string): ApprovalRow | undefined;
  /** Atomic: true for the one caller that moved it out of `pending`, false for everyone else. */
  resolve(id: string, resolution: ApprovalResolution): boolean;
  /** Oldest first; approvals of soft-deleted sessions are left out. */
  listPending(filter?: PendingFilter): ApprovalRow[];
  /** The approval asked for one tool call of a turn, if any (resumed turns reuse the decision). */
  findByToolCall(turnId: string, toolCallId: string): ApprovalRow | undefined;
}

type Stored = typeof approvals.$inferSelect;

export const toRow = (r: Stored): ApprovalRow => ({ ...r, input: r.input ?? null });

export function resolvedFields(resolution: ApprovalResolution, now: string) {
  return {
    status: resolution.approved ? ("approved" as const) : ("denied" as const),
    resolvedBy: resolution.by,
    reason: resolution.reason ?? null,
    resolvedAt: now,
  };
}

/** Pending approvals of visible sessions (joined), the same SQL on both dialects. */
export function pendingWhere(
  approval: { status: Column; sessionId: Column },
  session: { status: Column; principalType: Column; principalId: Column },
  filter: PendingFilter,
): SQL | undefined {
  return and(
    eq(approval.status, "pending"),
    visibleOf(session, filter.principal),
    filter.sessionId === undefined ? undefined : eq(approval.sessionId, filter.sessionId),
  );
}

export function createApprovalsRepository(ctx: StoreContext): ApprovalsRepository {
  const { db } = ctx;
  return {
    create(input) {
      const [row] = db
        .insert(approvals)
        .values({ ...input, id: input.id ?? newApprovalId(), status: "pending", createdAt: ctx.now() })
        .returning()
        .all();
      return toRow(row);
    },

    get(id) {
      const row = db.select().from(approvals).where(eq(approvals.id, id)).get();
      return row && toRow(row);
    },

    resolve(id, resolution) {
      const result = db
        .update(approvals)
        .set(resolvedFields(resolution, ctx.now()))
        .where(and(eq(approvals.id, id), eq(approvals.status, "pending")))
        .run();
      return result.changes === 1;
    },

    findByToolCall(turnId, toolCallId) {
      const row = db
        .select()
        .from(approvals)
        .where(and(eq(approvals.turnId, turnId), eq(approvals.toolCallId, toolCallId)))
        .get();
      return row && toRow(row);
    },

    listPending(filter = {}) {
      return db
        .select(getTableColumns(approvals))
        .from(approvals)
        .innerJoin(sessions, eq(sessions.id, approvals.sessionId))
        .where(pendingWhere(approvals, sessions, filter))
        .orderBy(approvals.createdAt, approvals.id)
        .all()
        .map(toRow);
    },
  };
}
