/**
 * Glue between Next.js route files and the engine. The engine lives in the
 * process that booted Next (web/start-web-server.ts) and is shared through
 * globalThis, so route bundles never carry a second copy of it.
 */
import type { AgentRouteName } from "../server/http/routes.ts";
import type { HttpHost } from "../server/http/http-host.ts";

const HOST_KEY = Symbol.for("bdk.httpHost");

type RouteContext = { params: Promise<Record<string, string | string[]>> };

export function setHttpHost(host: HttpHost | undefined): void {
  (globalThis as Record<symbol, unknown>)[HOST_KEY] = host;
}

export function httpHost(): HttpHost | undefined {
  return (globalThis as Record<symbol, unknown>)[HOST_KEY] as HttpHost | undefined;
}

/**
 * Set on every answer a route handler gives, so the front tells them from the
 * error pages Next.js makes itself (which it replaces with the envelope); the
 * front removes it before the answer leaves.
 */
export const ROUTE_ANSWER_HEADER = "x-bdk-route-answer";

/** Marks a handler's answer; one with immutable headers (a proxied `fetch` answer) is copied first. */
function marked(response: Response): Response {
  try {
    response.headers.set(ROUTE_ANSWER_HEADER, "1");
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set(ROUTE_ANSWER_HEADER, "1");
    return copy;
  }
}

const notServing = () =>
  Response.json({ ok: false, error: "not_ready", message: "Start the server with `bdk serve`." }, { status: 503 });

/** Catch-all segments (`[...path]`) arrive as arrays: joined back into a path. */
async function flatParams(context: RouteContext): Promise<Record<string, string>> {
  return Object.fromEntries(
    Object.entries(await context.params).map(([key, value]) => [key, Array.isArray(value) ? value.join("/") : value]),
  );
}

/** A route handler for one named agent route. */
export function agentRoute(name: AgentRouteName) {
  return async (request: Request, context: RouteContext): Promise<Response> => {
    const host = httpHost();
    if (!host) return notServing();
    return marked(await host.handleAgentRoute(name, request, await flatParams(context)));
  };
}

/** `/v1/channels/<id>/...`: channel routes authenticate by themselves. */
export function channelRoute() {
  return async (request: Request, context: RouteContext): Promise<Response> => {
    const host = httpHost();
    if (!host) return notServing();
    return marked(await host.handleChannelRoute(request, await flatParams(context)));
  };
}

export function agentsIndexRoute() {
  return async (request: Request): Promise<Response> => marked(httpHost()?.agentsIndex(request) ?? notServing());
}
