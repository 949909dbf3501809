import { asc, desc, eq } from "drizzle-orm";
import { ulid } from "../protocol/ids.ts";
import type { StoreContext } from "./context.ts";
import { evalCases, evalRuns } from "./schema.ts";
import type { EvalCaseRow, EvalRunRow, EvalRunStatus, EvalVerdict, JsonValue } from "./types.ts";

export interface EvalCaseInput {
  caseId: string;
  verdict: EvalVerdict;
  assertions?: JsonValue | null;
  sessionId?: string | null;
}

export type EvalRunPatch = Partial<Pick<EvalRunRow, "status" | "endedAt" | "summary">>;

export interface EvalRunsRepository {
  create(input?: { id?: string; status?: EvalRunStatus; summary?: JsonValue | null }): EvalRunRow;
  get(id: string): EvalRunRow | undefined;
  /** Newest first. */
  list(filter?: { limit?: number }): EvalRunRow[];
  update(id: string, patch: EvalRunPatch): EvalRunRow | undefined;
  /** Removes the run and its cases. */
  delete(id: string): boolean;
  /** Creates or replaces one case result of a run. */
  putCase(runId: string, input: EvalCaseInput): EvalCaseRow;
  /** Ordered by case id. */
  listCases(runId: string): EvalCaseRow[];
}

export const DEFAULT_LIMIT = 100;

type StoredRun = typeof evalRuns.$inferSelect;
type StoredCase = typeof evalCases.$inferSelect;

export const toRun = (r: StoredRun): EvalRunRow => ({ ...r, summary: (r.summary as JsonValue | null) ?? null });
export const toCase = (r: StoredCase): EvalCaseRow => ({ ...r, assertions: (r.assertions as JsonValue | null) ?? null });

export function createEvalRunsRepository(ctx: StoreContext): EvalRunsRepository {
  const { db } = ctx;
  return {
    create(input = {}) {
      const [row] = db
        .insert(evalRuns)
        .values({
          id: input.id ?? `evr_${ulid()}`,
          status: input.status ?? "running",
          startedAt: ctx.now(),
          summary: input.summary ?? null,
        })
        .returning()
        .all();
      return toRun(row);
    },

    get(id) {
      const row = db.select().from(evalRuns).where(eq(evalRuns.id, id)).get();
      return row && toRun(row);
    },

    list(filter = {}) {
      return db
        .select()
        .from(evalRuns)
        .orderBy(desc(evalRuns.startedAt), desc(evalRuns.id))
        .limit(filter.limit ?? DEFAULT_LIMIT)
        .all()
        .map(toRun);
    },

    update(id, patch) {
      const [row] = db.update(evalRuns).set(patch).where(eq(evalRuns.id, id)).returning().all();
      return row && toRun(row);
    },

    delete(id) {
      return db.delete(evalRuns).where(eq(evalRuns.id, id)).run().changes === 1;
    },

    putCase(runId, input) {
      const fields = {
        verdict: input.verdict,
        assertions: input.assertions ?? null,
        sessionId: input.sessionId ?? null,
        updatedAt: ctx.now(),
      };
      const [row] = db
        .insert(evalCases)
        .values({ runId, caseId: input.caseId, ...fields })
        .onConflictDoUpdate({ target: [evalCases.runId, evalCases.caseId], set: fields })
        .returning()
        .all();
      return toCase(row);
    },

    listCases(runId) {
      return db.select().from(evalCases).where(eq(evalCases.runId, runId)).orderBy(asc(evalCases.caseId)).all().map(toCase);
    },
  };
}
