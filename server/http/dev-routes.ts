/**
 * `/v1/dev/*`: list and fire schedules and reminders by hand, and the
 * playground's Connect for OAuth MCP connections. They exist only under
 * `--dev` (404 otherwise), where nothing fires on its own.
 */
import type { OpenedAgent } from "../host/open-agent.ts";
import { devCallbackPath, type DevOAuth } from "../mcp/dev-oauth.ts";
import { authorizationPage } from "../mcp/oauth-callback.ts";
import { BdkError, messageOf } from "../protocol/errors.ts";
import type { AgentRouteHandler } from "./agent-routes.ts";
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
 * The origin the browser used to reach us (its Host header): Next.js rebuilds
 * `request.url` on its own hostname (`localhost`), which need not be the
 * address the browser can reach.
 */
function browserOrigin(request: Request): string {
  const url = new URL(request.url);
  const host = request.headers.get("host");
  return host ? `${url.protocol}//${host}` : url.origin;
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

export const devRoutes = {
  async devListSchedules({ opened }) {
    return json({ ok: true, schedules: requireDev(opened).listSchedules() });
  },

  async devFireSchedule({ params, opened }) {
    const automation = requireDev(opened);
    return json(await firing(`Schedule ${params.name}`, () => automation.dispatchSchedule(params.name)));
  },

  async devListReminders({ opened }) {
    return json({ ok: true, reminders: requireDev(opened).listReminders() });
  },

  async devFireReminder({ params, opened }) {
    const automation = requireDev(opened);
    return json(await firing(`Reminder ${params.id}`, () => automation.dispatchReminder(params.id)));
  },

  /** Connect: starts the OAuth flow with this server's callback route as the redirect target. */
  async devAuthorizeConnection({ request, params, opened, basePath }) {
    const devOAuth = requireDevOAuth(opened);
    const redirectUrl = `${browserOrigin(request)}${basePath}${devCallbackPath(params.connection)}`;
    const url = await devOAuth.start(params.connection, redirectUrl);
    return json(url ? { ok: true, authorizationUrl: url.href } : { ok: true, authorized: true });
  },

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
