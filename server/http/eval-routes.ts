import { z } from "zod";
import { compareRuns } from "../evals/compare.ts";
import { EvalConfigError } from "../evals/runner.ts";
import { startRun } from "../evals/start-run.ts";
import { listStoredRuns, readStoredRun, type StoredCase } from "../evals/stored-runs.ts";
import { localTarget } from "../evals/target.ts";
import { BdkError, messageOf } from "../protocol/errors.ts";
import type { AgentRouteHandler, AgentRequest } from "./agent-routes.ts";
import { readJsonBody } from "./body.ts";
import { limitParam } from "./query.ts";
import { json } from "./respond.ts";

const startRunBody = z.object({
  name: z.string().trim().min(1).max(120).optional(),
  ids: z.array(z.string().min(1)).optional(),
  tags: z.array(z.string().min(1)).optional(),
  maxConcurrency: z.number().int().min(1).max(256).optional(),
  strict: z.boolean().optional(),
  dryRun: z.boolean().optional(),
});

const evalSessionBody = z.object({
  message: z.string().min(1),
  sessionId: z.string().min(1).optional(),
  title: z.string().max(200).optional(),
  dryRun: z.boolean().optional(),
  workspaceFiles: z.record(z.string(), z.string()).optional(),
});

async function requireRun(req: AgentRequest, id: string) {
  const run = await readStoredRun(req.opened.runtime.store, id);
  if (!run) throw new BdkError("not_found", `No eval run ${id}. See GET /v1/evals/runs.`);
  return run;
}

/** A case with links to its session in the playground and its event stream. */
function linked(evalCase: StoredCase, basePath: string) {
  if (!("sessionId" in evalCase) || !evalCase.sessionId) return evalCase;
  return {
    ...evalCase,
    playgroundUrl: `${basePath}/playground?sessionId=${evalCase.sessionId}`,
    traceUrl: `${basePath}/v1/session/${evalCase.sessionId}/stream?startIndex=0`,
  };
}

/** `/v1/evals/*`: list cases, start runs in the background, read and compare stored runs. */
export const evalRoutes = {
  async listEvals({ opened }) {
    const evals = opened.runtime.agent.evals;
    return json({
      ok: true,
      config: evals?.config
        ? { maxConcurrency: evals.config.maxConcurrency ?? null, timeoutMs: evals.config.timeoutMs ?? null, judge: evals.config.judge ?? null }
        : null,
      cases: (evals?.cases ?? []).map((evalCase) => ({
        id: evalCase.id,
        file: evalCase.file,
        description: evalCase.description ?? null,
        tags: evalCase.tags,
        iterations: evalCase.iterations,
        timeoutMs: evalCase.timeoutMs ?? null,
      })),
    });
  },

  async startEvalRun({ request, opened, principal }) {
    const body = await readJsonBody(request, startRunBody);
    let started;
    try {
      started = await startRun({
        agent: opened.runtime.agent.name,
        name: body.name,
        evals: opened.runtime.agent.evals,
        filter: { ids: body.ids, tags: body.tags, maxConcurrency: body.maxConcurrency },
        target: localTarget(opened, principal),
        store: opened.runtime.store,
        env: process.env,
        options: { strict: body.strict ?? false, dryRun: body.dryRun ?? true, target: "http" },
      });
    } catch (error) {
      if (error instanceof EvalConfigError) throw new BdkError("invalid_request", error.message);
      throw error;
    }
    started.done.catch((error: unknown) => {
      try {
        opened.logger.error("An eval run failed", { runId: started.runId, error: messageOf(error) });
      } catch {
        // The store closed under the run (the server is stopping): nothing left to record it in.
      }
    });
    return json({ ok: true, runId: started.runId, ...(body.name ? { name: body.name } : {}), cases: started.plan.cases.map((evalCase) => evalCase.id) }, 202);
  },

  async listEvalRuns({ request, opened }) {
    const limit = limitParam(new URL(request.url), { fallback: 50, max: 200 });
    return json({ ok: true, runs: await listStoredRuns(opened.runtime.store, limit) });
  },

  async getEvalRun(req) {
    const { cases, ...run } = await requireRun(req, req.params.id);
    return json({ ok: true, run, cases: cases.map((evalCase) => linked(evalCase, req.basePath)) });
  },

  async compareEvalRuns(req) {
    const current = (req.opened.runtime.agent.evals?.cases ?? []).map((evalCase) => evalCase.id);
    return json({ ok: true, ...compareRuns(await requireRun(req, req.params.id), await requireRun(req, req.params.otherId), current) });
  },

  /** Starts or continues an eval session (purpose "eval", dry run unless `dryRun: false`): what `bdk eval --url` sends through. */
  async sendEvalMessage({ request, opened, principal }) {
    const body = await readJsonBody(request, evalSessionBody);
    const accepted = await localTarget(opened, principal).send({
      message: body.message,
      sessionId: body.sessionId,
      title: body.title,
      dryRun: body.dryRun ?? true,
      workspaceFiles: body.workspaceFiles,
    });
    return json({ ok: true, ...accepted }, 202);
  },
} satisfies Record<string, AgentRouteHandler>;
