import { and, eq, getTableColumns, ne } from "drizzle-orm";
import type { Principal } from "../protocol/events.ts";
import { newApprovalId } from "../protocol/ids.ts";
import type { StoreContext } from "./context.ts";
import { ownedBy } from "./owned-by.ts";
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

export interface ApprovalsRepository {
  create(input: ApprovalCreate): ApprovalRow;
  get(id: string): ApprovalRow | undefined;
  /** Atomic: true for the one caller that moved it out of `pending`, false for everyone else. */
  resolve(id: string, resolution: ApprovalResolution): boolean;
  /** Oldest first; approvals of soft-deleted sessions are left out. */
  listPending(filter?: { principal?: Principal; sessionId?: string }): ApprovalRow[];
  /** The approval asked for one tool call of a turn, if any (resumed turns reuse the decision). */
  findByToolCall(turnId: string, toolCallId: string): ApprovalRow | undefined;
}

type Stored = typeof approvals.$inferSelect;

export const toRow = (r: Stored): ApprovalRow => ({ ...r, input: r.input ?? null });

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
        .set({
          status: resolution.approved ? "approved" : "denied",
          resolvedBy: resolution.by,
          reason: resolution.reason ?? null,
          resolvedAt: ctx.now(),
        })
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
        .where(
          and(
            eq(approvals.status, "pending"),
            ne(sessions.status, "deleted"),
            filter.principal === undefined ? undefined : ownedBy({ type: sessions.principalType, id: sessions.principalId }, filter.principal),
            filter.sessionId === undefined ? undefined : eq(approvals.sessionId, filter.sessionId),
          ),
        )
        .orderBy(approvals.createdAt, approvals.id)
        .all()
        .map(toRow);
    },
  };
}
