import { z } from "zod";
import type { OpenedAgent } from "../host/open-agent.ts";
import { projectInfo } from "../discover/info.ts";
import type { Principal } from "../protocol/events.ts";
import { offerJson } from "../sessions/model-offer.ts";
import type { SessionRow } from "../store/types.ts";
import { readJsonBody } from "./body.ts";
import { eventStream, NDJSON_HEADERS } from "./ndjson.ts";
import { indexParam, limitParam } from "./query.ts";
import { json } from "./respond.ts";

/** Everything a route handler needs; built by the host after auth. */
export interface AgentRequest {
  request: Request;
  params: Record<string, string>;
  opened: OpenedAgent;
  principal: Principal;
  /** Dev on loopback or anonymous: session lists show every principal. */
  seesAll: boolean;
  /** `/<slug>` in multi-agent mode, empty in single mode. */
  basePath: string;
}

export type AgentRouteHandler = (req: AgentRequest) => Promise<Response>;

const createSessionBody = z.object({
  message: z.string().min(1),
  title: z.string().max(200).optional(),
  workspaceFiles: z.record(z.string(), z.string()).optional(),
  mode: z.enum(["chat", "task"]).optional(),
});

const followUpBody = z.object({
  message: z.string().min(1),
  continuationToken: z.string().min(1),
  admission: z.enum(["preempt", "coalesce"]).optional(),
  workspaceFiles: z.record(z.string(), z.string()).optional(),
});

const approvalBody = z.object({ approved: z.boolean(), reason: z.string().max(2000).optional() });

const inDoubtBody = z.object({ resolution: z.enum(["done", "not_done"]), note: z.string().max(2000).optional() });

const toolCallBody = z.object({ input: z.unknown().optional(), sessionId: z.string().optional() });

export function sessionJson(session: SessionRow) {
  return {
    id: session.id,
    title: session.title,
    mode: session.mode,
    status: session.status,
    principal: session.principal,
    channel: session.channel,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    lastIndex: session.lastIndex,
    usage: session.usage,
    ...(session.fork ? { parentId: session.fork.parentId, forkedAt: session.fork.forkedAt } : {}),
  };
}

/** One session as `GET /session/:id` answers it: a fork also says what it overrides (lists leave that out: it can be a whole prompt). */
function sessionDetailJson(session: SessionRow) {
  return { ...sessionJson(session), ...(session.fork ? { overrides: session.fork.overrides } : {}) };
}

/** Whose records (sessions, approvals, artifacts, memory) the caller sees: its own, or everyone's (undefined) in dev on loopback and anonymous mode. */
export function visibleOwner(req: AgentRequest): Principal | undefined {
  return req.seesAll ? undefined : req.principal;
}

/**
 * Who the caller acts as on `/session/:id`: itself, or, when it sees every
 * principal's sessions (`--dev` on loopback, anonymous), the session's owner,
 * so a session the list shows (a schedule's, a Slack thread's) also opens.
 */
export async function sessionPrincipal({ seesAll, principal, opened, params }: AgentRequest): Promise<Principal> {
  if (!seesAll) return principal;
  return (await opened.store.sessions.get(params.id))?.principal ?? principal;
}

/** The session, tool, info and log routes of one agent, keyed by route name. */
export const sessionRoutes = {
  async createSession({ request, opened, principal, basePath }) {
    const body = await readJsonBody(request, createSessionBody);
    const handle = await opened.runtime.startSession({
      message: body.message,
      title: body.title,
      mode: body.mode,
      workspaceFiles: body.workspaceFiles,
      principal,
      channel: "http",
    });
    return json(
      {
        ok: true,
        sessionId: handle.sessionId,
        continuationToken: handle.continuationToken,
        turnId: handle.turnId,
        playgroundUrl: `${basePath}/playground?sessionId=${handle.sessionId}`,
        traceUrl: `${basePath}/v1/session/${handle.sessionId}/stream?startIndex=0`,
      },
      202,
    );
  },

  async followUp(req) {
    const { request, params, opened } = req;
    const body = await readJsonBody(request, followUpBody);
    const { answer } = await opened.runtime.acceptFollowUp(
      params.id,
      {
        message: body.message,
        continuationToken: body.continuationToken,
        admission: body.admission,
        workspaceFiles: body.workspaceFiles,
        principal: await sessionPrincipal(req),
        rotateToken: true,
      },
      request.headers.get("idempotency-key") ?? undefined,
    );
    return json({ ok: true, ...answer }, 202);
  },

  /** The owner's way back to a session after a lost response: its current continuation token. */
  async continuationToken(req) {
    const token = await req.opened.runtime.continuationToken(req.params.id, await sessionPrincipal(req));
    return json({ ok: true, sessionId: req.params.id, continuationToken: token });
  },

  async stop(req) {
    const status = await req.opened.runtime.stop(req.params.id, await sessionPrincipal(req));
    return json({ ok: true, status }, status === "stopping" ? 202 : 200);
  },

  async getSession(req) {
    return json({ ok: true, session: sessionDetailJson(await req.opened.runtime.getSession(req.params.id, await sessionPrincipal(req))) });
  },

  async deleteSession(req) {
    await req.opened.runtime.deleteSession(req.params.id, await sessionPrincipal(req));
    return json({ ok: true });
  },

  async listSessions(req) {
    const { request, opened } = req;
    const url = new URL(request.url);
    const limit = limitParam(url, { fallback: 50, max: 200 });
    const page = await opened.runtime.listSessions({
      principal: visibleOwner(req),
      q: url.searchParams.get("q") ?? undefined,
      limit,
      cursor: url.searchParams.get("cursor") ?? undefined,
    });
    return json({ ok: true, sessions: page.sessions.map(sessionJson), nextCursor: page.nextCursor ?? null });
  },

  async stream(req) {
    const { request, params, opened } = req;
    const principal = await sessionPrincipal(req);
    const url = new URL(request.url);
    const from = indexParam(url, "startIndex");
    if (url.searchParams.get("follow") === "false") {
      return new Response(await opened.runtime.reader.eventsNdjson(params.id, principal, from), { headers: NDJSON_HEADERS });
    }
    // Checked before the stream exists: once the body has started, a 403/404 could only end it, not answer it.
    await opened.runtime.getSession(params.id, principal);
    const body = eventStream({
      subscribe: (deliver, end) => opened.runtime.reader.followNdjson(params.id, principal, from, deliver, end),
      keepalive: async () => {
        const status = await opened.runtime.reader.turnStatusLine(params.id);
        return status && `${JSON.stringify(status)}\n`;
      },
    });
    return new Response(body, { headers: NDJSON_HEADERS });
  },

  async events(req) {
    const from = indexParam(new URL(req.request.url), "startIndex");
    const text = await req.opened.runtime.reader.eventsNdjson(req.params.id, await sessionPrincipal(req), from);
    return new Response(text, { headers: NDJSON_HEADERS });
  },

  async turnTrace(req) {
    const trace = await req.opened.runtime.reader.turnTrace(req.params.id, req.params.turnId, await sessionPrincipal(req));
    return json({ ok: true, ...trace });
  },

  async listTools({ opened }) {
    const tools = opened.runtime.agent.tools
      .filter((tool) => tool.execution === "server")
      .map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputJsonSchema,
        effect: tool.effectLabel,
        ...(tool.effectIsDefault ? { effectDefault: true } : {}),
        needsApproval: tool.needsApprovalLabel,
      }));
    return json({ ok: true, tools });
  },

  /**
   * What the model is offered on a turn: the system prompt part by part
   * (instructions, skills, workspace, memory, or a fork's), every tool with
   * its source, and the bot version. `?sessionId=` for that session's next
   * turn; without it, a new session's first.
   */
  async agentOffer(req) {
    const sessionId = new URL(req.request.url).searchParams.get("sessionId") ?? undefined;
    const principal = sessionId ? await sessionPrincipal({ ...req, params: { id: sessionId } }) : req.principal;
    return json({ ok: true, ...offerJson(await req.opened.runtime.tools.modelOffer(principal, sessionId)) });
  },

  async callTool({ request, params, opened, principal }) {
    const body = await readJsonBody(request, toolCallBody);
    const outcome = await opened.runtime.tools.callTool(params.name, body.input ?? {}, {
      sessionId: body.sessionId,
      principal,
    });
    return json({ ok: true, isError: outcome.isError, result: outcome.output });
  },

  async listApprovals(req) {
    const approvals = (await req.opened.runtime.inbox.listApprovals(visibleOwner(req))).map((row) => ({
      approvalId: row.id,
      sessionId: row.sessionId,
      turnId: row.turnId,
      toolCallId: row.toolCallId,
      name: row.name,
      input: row.input,
      createdAt: row.createdAt,
    }));
    // Write calls a crash cut off: nothing to approve, but a person should check whether they took effect.
    const inDoubt = (await req.opened.runtime.inbox.listInDoubtCalls(visibleOwner(req))).map((row) => ({
      sessionId: row.sessionId,
      turnId: row.turnId,
      toolCallId: row.toolCallId,
      name: row.name,
      input: row.input,
      startedAt: row.startedAt,
    }));
    return json({ ok: true, approvals, inDoubt });
  },

  async resolveApproval({ request, params, opened, principal, seesAll }) {
    const body = await readJsonBody(request, approvalBody);
    const row = await opened.runtime.inbox.resolveApproval(params.id, params.approvalId, body, principal, { anyOwner: seesAll });
    return json({ ok: true, approvalId: row.id, status: row.status, by: row.resolvedBy });
  },

  async resolveInDoubt({ request, params, opened, principal, seesAll }) {
    const body = await readJsonBody(request, inDoubtBody);
    const row = await opened.runtime.inbox.resolveInDoubt(params.id, params.toolCallId, body, principal, { anyOwner: seesAll });
    return json({ ok: true, toolCallId: row.toolCallId, status: "resolved", resolution: body.resolution });
  },

  async info({ opened }) {
    const running = { connections: opened.mcp.status() };
    return json(projectInfo(opened.runtime.agent, opened.diagnostics, new Date(), opened.effectiveModel(), running));
  },

  async logs({ request, opened }) {
    const url = new URL(request.url);
    const logs = await opened.store.logs.list({ since: url.searchParams.get("since") ?? undefined, limit: 500 });
    return json({ ok: true, logs: logs.map((row) => ({ at: row.at, level: row.level, msg: row.msg, ...row.data })) });
  },
} satisfies Record<string, AgentRouteHandler>;
