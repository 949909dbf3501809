/**
 * `/v1/dev/*`: list and fire schedules and reminders by hand, and the
 * playground's Connect for OAuth MCP connections. They exist only under
 * `--dev` (404 otherwise), where nothing fires on its own.
 */
import { z } from "zod";
import { evalCaseSource } from "../evals/case-from-session.ts";
import { evalCaseName, writeEvalCase } from "../evals/save-eval-case.ts";
import type { OpenedAgent } from "../host/open-agent.ts";
import { devCallbackPath, type DevOAuth } from "../mcp/dev-oauth.ts";
import { authorizationPage } from "../mcp/oauth-callback.ts";
import { BdkError, messageOf } from "../protocol/errors.ts";
import { type AgentRouteHandler, sessionPrincipal } from "./agent-routes.ts";
import { readJsonBody } from "./body.ts";
import { json } from "./respond.ts";

const NOT_DEV = "Dev routes exist only under --dev (bdk dev, or bdk serve --dev).";

function requireDev(opened: OpenedAgent): OpenedAgent["automation"] {
  if (!opened.automation.dev) throw new BdkError("not_found", NOT_DEV);
  return opened.automation;
}

function requireDevOAuth(opened: OpenedAgent): DevOAuth {
  if (!opened.devOAuth) throw new BdkError("not_found", NOT_DEV);
  return opened.devOAuth;
}

/**
 * The origin the browser used to reach us. The playground's POST carries an
 * `Origin` (scheme included, so an https tunnel stays https); otherwise the
 * Host header: Next.js rebuilds `request.url` on its own hostname
 * (`localhost`), which need not be the address the browser can reach.
 * Another site's page may not start flows (`Sec-Fetch-Site: cross-site`, or
 * an `Origin` whose host is not the one it talks to).
 */
function browserOrigin(request: Request): string {
  refuseCrossSite(request, "Connect can only be started from this server's own playground.");
  const url = new URL(request.url);
  const host = request.headers.get("host");
  const origin = request.headers.get("origin");
  if (origin) return origin;
  return host ? `${url.protocol}//${host}` : url.origin;
}

/** Another site's page in the developer's browser may not use the dev routes that act (start flows, write files). */
function refuseCrossSite(request: Request, message: string): void {
  const host = request.headers.get("host");
  const origin = request.headers.get("origin");
  const crossSite = request.headers.get("sec-fetch-site") === "cross-site" || (origin !== null && hostOf(origin) !== host);
  if (crossSite) throw new BdkError("forbidden", message);
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/** The callback answers the browser tab, so with a page rather than the JSON envelope. */
function page(status: number, title: string, text: string): Response {
  return new Response(authorizationPage(title, text), {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

/** A handler's own failure is reported with its message (the developer asked for this firing). */
async function firing<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (BdkError.isInstance(error)) throw error;
    throw new BdkError("internal", `${what} failed: ${messageOf(error)}`);
  }
}

const saveEvalCaseBody = z
  .object({ sessionId: z.string().min(1), name: z.string().min(1).max(200), overwrite: z.boolean().optional() })
  .strict();

export const devRoutes = {
  async devListSchedules({ opened }) {
    return json({ ok: true, schedules: await requireDev(opened).listSchedules() });
  },

  async devFireSchedule({ params, opened }) {
    const automation = requireDev(opened);
    return json(await firing(`Schedule ${params.name}`, () => automation.dispatchSchedule(params.name)));
  },

  async devListReminders({ opened }) {
    return json({ ok: true, reminders: await requireDev(opened).listReminders() });
  },

  async devFireReminder({ params, opened }) {
    const automation = requireDev(opened);
    return json(await firing(`Reminder ${params.id}`, () => automation.dispatchReminder(params.id)));
  },

  /**
   * Save as eval case: the session's messages and observed tool calls as
   * `evals/<name>.eval.ts`, then a reload, so the Evals tab lists and runs it
   * at once. An existing file is replaced only with `overwrite: true` (409).
   */
  async devSaveEvalCase(req) {
    const { request, opened } = req;
    requireDev(opened);
    refuseCrossSite(request, "Eval cases can only be saved from this server's own playground.");
    const body = await readJsonBody(request, saveEvalCaseBody);
    const session = await opened.runtime.getSession(body.sessionId, await sessionPrincipal({ ...req, params: { id: body.sessionId } }));
    const events = await opened.runtime.reader.events(session.id, session.principal);
    let text: string;
    try {
      text = evalCaseSource({ sessionId: session.id, title: session.title, events, savedAt: new Date() });
    } catch (error) {
      throw new BdkError("invalid_request", messageOf(error));
    }
    const file = writeEvalCase(opened.agent.rootDir, body.name, text, { overwrite: body.overwrite });
    await opened.reload?.();
    const caseId = evalCaseName(body.name);
    const cases = (opened.runtime.agent.evals?.cases ?? []).filter((evalCase) => evalCase.id === caseId || evalCase.id.startsWith(`${caseId}/`));
    return json({ ok: true, file, caseIds: cases.map((evalCase) => evalCase.id), source: text }, 201);
  },

  /** Connect: starts the OAuth flow with this server's callback route as the redirect target. */
  async devAuthorizeConnection({ request, params, opened, basePath }) {
    const devOAuth = requireDevOAuth(opened);
    const redirectUrl = `${browserOrigin(request)}${basePath}${devCallbackPath(params.connection)}`;
    const url = await devOAuth.start(params.connection, redirectUrl);
    return json(url ? { ok: true, authorizationUrl: url.href } : { ok: true, authorized: true });
  },

  /**
   * Where the authorization server sends the browser back. It carries no
   * credentials (a redirect), so it authenticates by its `state`: single use,
   * unguessable, issued only to a caller the policies admitted
   * (`SELF_AUTHENTICATING_ROUTES` in http-host.ts).
   */
  async devConnectionCallback({ request, params, opened }) {
    const devOAuth = requireDevOAuth(opened);
    try {
      await devOAuth.complete(params.connection, new URL(request.url).searchParams);
    } catch (error) {
      if (!BdkError.isInstance(error)) throw error;
      return page(error.status, "Authorization failed", `Could not connect ${params.connection}: ${error.message}`);
    }
    return page(200, `Connected ${params.connection}`, `Connected ${params.connection}. You can close this tab.`);
  },
} satisfies Record<string, AgentRouteHandler>;
