import { z } from "zod";
import { diffRuns, sharedStart, summarizeRun } from "../sessions/run-diff.ts";
import { type AgentRouteHandler, sessionJson, sessionPrincipal } from "./agent-routes.ts";
import { readJsonBody } from "./body.ts";
import { json } from "./respond.ts";

const overridesBody = z
  .object({
    model: z.string().trim().min(1).optional(),
    params: z.array(z.object({ id: z.string().min(1), value: z.string() }).strict()).optional(),
    instructions: z.string().max(200_000).optional(),
    toolResults: z.record(z.string().min(1), z.object({ output: z.unknown(), isError: z.boolean().optional() }).strict()).optional(),
    toolCallResults: z
      .array(z.object({ name: z.string().min(1), call: z.number().int().min(1), output: z.unknown(), isError: z.boolean().optional() }).strict())
      .max(1000)
      .optional(),
  })
  .strict();

const forkBody = z
  .object({
    beforeIndex: z.number().int().min(0).optional(),
    afterIndex: z.number().int().min(0).optional(),
    message: z.string().min(1).optional(),
    title: z.string().max(200).optional(),
    overrides: overridesBody.optional(),
  })
  .strict()
  .refine((body) => (body.beforeIndex === undefined) !== (body.afterIndex === undefined), {
    message: "give exactly one of beforeIndex (a message.received index) and afterIndex (an event inside a turn)",
    path: ["beforeIndex"],
  });

/** Iterating on a run: fork a session at one of its messages (with overrides), and compare two runs. */
export const forkRoutes = {
  async forkSession(req) {
    const { request, params, opened, principal, basePath } = req;
    const body = await readJsonBody(request, forkBody);
    const handle = await opened.runtime.fork(params.id, {
      principal: await sessionPrincipal(req),
      owner: principal,
      at: body.afterIndex === undefined ? { beforeIndex: body.beforeIndex! } : { afterIndex: body.afterIndex },
      message: body.message,
      title: body.title,
      overrides: body.overrides,
    });
    return json(
      {
        ok: true,
        sessionId: handle.sessionId,
        parentId: params.id,
        continuationToken: handle.continuationToken,
        turnId: handle.turnId,
        playgroundUrl: `${basePath}/playground?sessionId=${handle.sessionId}`,
        traceUrl: `${basePath}/v1/session/${handle.sessionId}/stream?startIndex=0`,
      },
      202,
    );
  },

  async diffSessions(req) {
    const { params, opened } = req;
    const before = await opened.runtime.getSession(params.id, await sessionPrincipal(req));
    const after = await opened.runtime.getSession(params.otherId, await sessionPrincipal({ ...req, params: { id: params.otherId } }));
    const from = sharedStart(before, after);
    const diff = diffRuns(
      summarizeRun(before.id, await opened.runtime.reader.events(before.id, before.principal, from), from),
      summarizeRun(after.id, await opened.runtime.reader.events(after.id, after.principal, from), from),
    );
    return json({ ok: true, sessions: { before: sessionJson(before), after: sessionJson(after) }, ...diff });
  },
} satisfies Record<string, AgentRouteHandler>;
