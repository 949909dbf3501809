import { and, eq, getTableColumns } from "drizzle-orm";
import { newApprovalId } from "../../protocol/ids.ts";
import { pendingWhere, resolvedFields, toRow, type ApprovalsRepository } from "../approvals.ts";
import type { AsyncRepository } from "../async-store.ts";
import type { PgContext } from "./context.ts";
import { approvals, sessions } from "./schema.ts";

export function createPgApprovalsRepository(ctx: PgContext): AsyncRepository<ApprovalsRepository> {
  const { db } = ctx;
  return {
    async create(input) {
      const [row] = await db
        .insert(approvals)
        .values({ ...input, id: input.id ?? newApprovalId(), status: "pending", createdAt: ctx.now() })
        .returning();
      return toRow(row);
    },

    async get(id) {
      const [row] = await db.select().from(approvals).where(eq(approvals.id, id));
      return row && toRow(row);
    },

    async resolve(id, resolution) {
      // A conditional UPDATE: of the nodes resolving one approval at once, the row lock lets exactly one see it pending.
      const result = await db
        .update(approvals)
        .set(resolvedFields(resolution, ctx.now()))
        .where(and(eq(approvals.id, id), eq(approvals.status, "pending")));
      return result.rowCount === 1;
    },

    async findByToolCall(turnId, toolCallId) {
      const [row] = await db
        .select()
        .from(approvals)
        .where(and(eq(approvals.turnId, turnId), eq(approvals.toolCallId, toolCallId)));
      return row && toRow(row);
    },

    async listPending(filter = {}) {
      const rows = await db
        .select(getTableColumns(approvals))
        .from(approvals)
        .innerJoin(sessions, eq(sessions.id, approvals.sessionId))
        .where(pendingWhere(approvals, sessions, filter))
        .orderBy(approvals.createdAt, approvals.id);
      return rows.map(toRow);
    },
  };
}
