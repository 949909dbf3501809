import { type AuthPolicy, isLoopback, type RequestFacts, requireAuth } from "../auth/policies.ts";
import type { OpenedAgent } from "../host/open-agent.ts";
import { BdkError } from "../protocol/errors.ts";
import { handleChannelRequest } from "./channel-routes.ts";
import { agentRoutes, type AgentRouteName } from "./routes.ts";
import { errorResponse, json } from "./respond.ts";

/**
 * Headers the HTTP front sets from the raw socket request (overwriting any
 * client-sent value): the peer address, and whether the client sent
 * forwarding headers (Next.js adds its own x-forwarded-* later).
 */
export const PEER_HEADER = "x-bdk-peer";
export const FORWARDED_HEADER = "x-bdk-forwarded";

export function requestFacts(request: Request): RequestFacts {
  return {
    peer: request.headers.get(PEER_HEADER) ?? undefined,
    forwarded: request.headers.get(FORWARDED_HEADER) !== "0",
    authorization: request.headers.get("authorization"),
  };
}

export interface MountedAgent {
  slug: string;
  opened: OpenedAgent;
}

export interface HttpHostOptions {
  agents: MountedAgent[];
  mode: "single" | "multi";
  dev: boolean;
  /** Who may call, in order (`serverPolicies`); each bearer token is its own principal (`service:bearer-<hash>`). */
  policies: AuthPolicy[];
  playground: boolean;
  /** The /docs pages (`--no-docs` turns them off); read by app/docs. */
  docs?: boolean;
}

/** The session a route is about (`/v1/session/:id/...`), for its log lines. */
function sessionOf(params: Record<string, string>): { sessionId?: string } {
  return params.id?.startsWith("ses_") ? { sessionId: params.id } : {};
}

/**
 * Every built-in HTTP route as a plain `Request → Response` function: auth,
 * agent lookup, the route, the error envelope. Next.js route files call in.
 */
/**
 * Routes that prove who calls them by themselves: the OAuth callback a
 * browser reaches through a redirect (no credentials), by the single-use
 * `state` it carries. They run as nobody and see only what that proves.
 */
const SELF_AUTHENTICATING_ROUTES: ReadonlySet<AgentRouteName> = new Set(["devConnectionCallback"]);
const NOBODY = { principal: { type: "user", id: "unauthenticated" }, policy: "self" } as const;

export class HttpHost {
  readonly policies: AuthPolicy[];

  constructor(readonly options: HttpHostOptions) {
    this.policies = options.policies;
  }

  agent(slug: string): MountedAgent | undefined {
    return this.options.agents.find((agent) => agent.slug === slug);
  }

  basePath(slug: string): string {
    return this.options.mode === "single" ? "" : `/${slug}`;
  }

  async handleAgentRoute(
    name: AgentRouteName,
    request: Request,
    params: Record<string, string>,
  ): Promise<Response> {
    const slug = params.slug ?? "";
    const mounted = this.agent(slug);
    try {
      if (!mounted) throw new BdkError("not_found", `No agent mounted at /${slug}.`);
      const auth = SELF_AUTHENTICATING_ROUTES.has(name) ? NOBODY : requireAuth(this.policies, requestFacts(request));
      const seesAll = auth.policy === "anonymous" || (this.options.dev && auth.policy === "localDevStrict");
      return await agentRoutes[name]({
        request,
        params,
        opened: mounted.opened,
        principal: auth.principal,
        seesAll,
        basePath: this.basePath(slug),
      });
    } catch (error) {
      return this.failure(error, mounted, request, { route: name, ...sessionOf(params) });
    }
  }

  /**
   * `/v1/channels/<id>/...`: each channel authenticates by itself (its own
   * `auth` array, defaulting to these policies, or a platform signature).
   */
  async handleChannelRoute(request: Request, params: Record<string, string>): Promise<Response> {
    const mounted = this.agent(params.slug ?? "");
    try {
      if (!mounted) throw new BdkError("not_found", `No agent mounted at /${params.slug ?? ""}.`);
      return await handleChannelRequest({
        request,
        path: params.path ?? "",
        opened: mounted.opened,
        policies: this.policies,
        facts: requestFacts(request),
      });
    } catch (error) {
      return this.failure(error, mounted, request, { channelPath: params.path });
    }
  }

  /**
   * The error envelope for the client. An unexpected error's stack goes to
   * the agent's log only; a 4xx answer is logged too (with the session it was
   * about), so "why did my call fail" is answered in the Logs tab.
   */
  private failure(error: unknown, mounted: MountedAgent | undefined, request: Request, where: Record<string, unknown>): Response {
    const response = errorResponse(error, (internal) =>
      mounted?.opened.logger.error("Unhandled error in a route", {
        ...where,
        error: internal instanceof Error ? (internal.stack ?? internal.message) : String(internal),
      }),
    );
    if (mounted && BdkError.isInstance(error) && error.status >= 400 && error.status < 500 && where.route !== "logs") {
      // Single mode serves `/v1/...` through a rewrite to `/<slug>/v1/...`: log the path the caller used.
      const internal = new URL(request.url).pathname;
      const slug = `/${mounted.slug}`;
      const pathname = this.options.mode === "single" && internal.startsWith(`${slug}/`) ? internal.slice(slug.length) : internal;
      // A missing or wrong token is the caller's setup, and a client without one retries every few seconds: info, not warn.
      const level = error.status === 401 ? "info" : "warn";
      mounted.opened.logger[level](`${request.method} ${pathname} → ${error.status} ${error.code}: ${error.message}`, { ...where, status: error.status, code: error.code });
    }
    return response;
  }

  /** `GET /v1/agents`: the JSON index of mounted agents. */
  agentsIndex(request: Request): Response {
    try {
      if (!this.options.playground) throw new BdkError("not_found", "The agents index is disabled (--no-playground).");
      requireAuth(this.policies, requestFacts(request));
    } catch (error) {
      return errorResponse(error);
    }
    return json({
      ok: true,
      agents: this.options.agents.map(({ slug, opened }) => ({
        slug,
        name: opened.runtime.agent.name,
        displayName: opened.runtime.agent.config.name ?? opened.runtime.agent.name,
        description: opened.runtime.agent.config.description,
        model: opened.runtime.agent.config.model ?? "grok-4.5",
        playgroundUrl: `${this.basePath(slug)}/playground`,
        apiBase: `${this.basePath(slug)}/v1`,
      })),
    });
  }

  isLocal(request: Request): boolean {
    const facts = requestFacts(request);
    return !facts.forwarded && isLoopback(facts.peer);
  }
}
