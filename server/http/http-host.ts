import { authenticate, type AuthPolicy, isLoopback } from "../auth/policies.ts";
import type { OpenedAgent } from "../host/open-agent.ts";
import { BdkError } from "../protocol/errors.ts";
import { agentRoutes, type AgentRouteName } from "./routes.ts";
import { errorResponse, json } from "./respond.ts";

/** The header the HTTP front sets to the socket's peer address (any client-sent value is dropped first). */
export const PEER_HEADER = "x-bdk-peer";

export interface MountedAgent {
  slug: string;
  opened: OpenedAgent;
}

export interface HttpHostOptions {
  agents: MountedAgent[];
  mode: "single" | "multi";
  dev: boolean;
  /** Each token is its own principal (`service:bearer-<hash>`). */
  bearerTokens?: string[];
  allowAnonymous?: boolean;
  playground: boolean;
}

/**
 * Every built-in HTTP route as a plain `Request → Response` function: auth,
 * agent lookup, the route, the error envelope. Next.js route files call in.
 */
export class HttpHost {
  readonly policies: AuthPolicy[];

  constructor(readonly options: HttpHostOptions) {
    this.policies = options.allowAnonymous
      ? [{ kind: "anonymous" }]
      : [
          ...(options.bearerTokens ?? []).map((token) => ({ kind: "bearer" as const, token })),
          { kind: "localDevStrict" as const },
        ];
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
      const peer = request.headers.get(PEER_HEADER) ?? undefined;
      const auth = authenticate(this.policies, { peer, headers: request.headers });
      if (!auth.ok) throw new BdkError(auth.status === 401 ? "unauthenticated" : "forbidden", auth.message);
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
      return errorResponse(error, (internal) =>
        mounted?.opened.logger.error("Unhandled error in a route", {
          route: name,
          error: internal instanceof Error ? (internal.stack ?? internal.message) : String(internal),
        }),
      );
    }
  }

  /** `GET /v1/agents`: the JSON index of mounted agents. */
  agentsIndex(request: Request): Response {
    if (!this.options.playground) return errorResponse(new BdkError("not_found", "The agents index is disabled."));
    const peer = request.headers.get(PEER_HEADER) ?? undefined;
    const auth = authenticate(this.policies, { peer, headers: request.headers });
    if (!auth.ok) {
      return errorResponse(new BdkError(auth.status === 401 ? "unauthenticated" : "forbidden", auth.message));
    }
    return json({
      ok: true,
      agents: this.options.agents.map(({ slug, opened }) => ({
        slug,
        name: opened.runtime.agent.name,
        model: opened.runtime.agent.config.model ?? "grok-4.5",
        playgroundUrl: `${this.basePath(slug)}/playground`,
        apiBase: `${this.basePath(slug)}/v1`,
      })),
    });
  }

  isLocal(request: Request): boolean {
    return isLoopback(request.headers.get(PEER_HEADER) ?? undefined);
  }
}
