import { asc, desc, eq, sql } from "drizzle-orm";
import { ulid } from "../../protocol/ids.ts";
import type { AsyncRepository } from "../async-store.ts";
import { DEFAULT_LIMIT, toCase, toRun, type EvalRunsRepository } from "../eval-runs.ts";
import type { PgContext } from "./context.ts";
import { evalCases, evalRuns } from "./schema.ts";

export function createPgEvalRunsRepository(ctx: PgContext): AsyncRepository<EvalRunsRepository> {
  const { db } = ctx;
  return {
    async create(input = {}) {
      const [row] = await db
        .insert(evalRuns)
        .values({ id: input.id ?? `evr_${ulid()}`, status: input.status ?? "running", startedAt: ctx.now(), summary: input.summary ?? null })
        .returning();
      return toRun(row);
    },

    async get(id) {
      const [row] = await db.select().from(evalRuns).where(eq(evalRuns.id, id));
      return row && toRun(row);
    },

    async list(filter = {}) {
      const rows = await db
        .select()
        .from(evalRuns)
        .orderBy(desc(evalRuns.startedAt), desc(evalRuns.id))
        .limit(filter.limit ?? DEFAULT_LIMIT);
      return rows.map(toRun);
    },

    async update(id, patch) {
      const [row] = await db.update(evalRuns).set(patch).where(eq(evalRuns.id, id)).returning();
      return row && toRun(row);
    },

    async delete(id) {
      return (await db.delete(evalRuns).where(eq(evalRuns.id, id))).rowCount === 1;
    },

    async putCase(runId, input) {
      const fields = { verdict: input.verdict, assertions: input.assertions ?? null, sessionId: input.sessionId ?? null, updatedAt: ctx.now() };
      const [row] = await db
        .insert(evalCases)
        .values({ runId, caseId: input.caseId, ...fields })
        .onConflictDoUpdate({ target: [evalCases.runId, evalCases.caseId], set: fields })
        .returning();
      return toCase(row);
    },

    async listCases(runId) {
      const rows = await db.select().from(evalCases).where(eq(evalCases.runId, runId)).orderBy(asc(sql`${evalCases.caseId} COLLATE "C"`));
      return rows.map(toCase);
    },
  };
}
