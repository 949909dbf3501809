import { brand } from "./brand.ts";
import type { AuthPolicy } from "../auth/policies.ts";
import type { BdkEvent, EventType, Principal } from "../protocol/events.ts";
import type { ZodLike } from "./tools.ts";
import type { ArtifactsApi, HostServices } from "./types.ts";

/** Auth policy descriptors; the HTTP server implements them (server/auth/policies.ts). */
export type { AuthPolicy };

/** Direct loopback peers only, no proxy-forwarding headers (the default). Principal `user:local`. */
export function localDevStrict(): AuthPolicy {
  return { kind: "localDevStrict" };
}

/** `Authorization: Bearer <token>`, compared in constant time. */
export function bearerAuth(token: string): AuthPolicy {
  return { kind: "bearer", token };
}

/** Everyone is `user:anonymous` (demo only). */
export function anonymous(): AuthPolicy {
  return { kind: "anonymous" };
}

export interface SendOptions<TState = unknown> {
  /** Continue the session behind this token instead of starting one. */
  continuationToken?: string;
  state?: TState;
  title?: string;
  /** Principal the session belongs to (default: the caller). */
  auth?: Principal;
  admission?: "preempt" | "coalesce";
  /**
   * The working directory of the session this starts, e.g. a PR worktree
   * (absolute, or relative to the project root; created when missing). The
   * built-in tools work there; a continued session keeps the one it started with.
   */
  workspaceDir?: string;
  /** Relative path → contents, written into the session's workspace before the turn. */
  workspaceFiles?: Record<string, string>;
}

export interface SessionCompletion {
  status: "finished" | "failed" | "cancelled";
  result?: string;
  errorMessage?: string;
}

export interface SessionHandle {
  id: string;
  continuationToken: string;
  waitForCompletion(): Promise<SessionCompletion>;
}

export interface ReceiveInput<TState = unknown> {
  message: string;
  auth?: Principal;
  state?: TState;
}

/** Hand work into a channel so its delivery events fire. */
export type ReceiveFn = <TState>(channel: ChannelDefinition<TState>, input: ReceiveInput<TState>) => Promise<SessionHandle>;

export interface RouteHandlerArgs<Body = unknown, Query = unknown> {
  body: Body;
  query: Query;
  params: Record<string, string>;
  send(message: string, options?: SendOptions): Promise<SessionHandle>;
  receive: ReceiveFn;
  getSession(id: string): Promise<Record<string, unknown> | undefined>;
  waitUntil(promise: Promise<unknown>): void;
  host: HostServices;
  artifacts: ArtifactsApi;
  principal: Principal;
}

type Parsed<Schema, Fallback> = Schema extends ZodLike<infer Output> ? Output : Fallback;

export type RouteHandler<Body = unknown, Query = unknown> = (
  request: Request,
  args: RouteHandlerArgs<Body, Query>,
) => Response | Promise<Response>;

export interface RouteSpec<BodySchema, QuerySchema> {
  description?: string;
  /** A body failing this schema gets 400 naming the field; the handler does not run. */
  bodySchema?: BodySchema;
  querySchema?: QuerySchema;
  handler: RouteHandler<Parsed<BodySchema, unknown>, Parsed<QuerySchema, Record<string, string>>>;
}

export interface ChannelRoute {
  method: "GET" | "POST";
  /** Relative to `/v1/channels/<id>`; may contain `:param` segments. */
  path: string;
  description?: string;
  bodySchema?: ZodLike;
  querySchema?: ZodLike;
  // The route list erases each route's body/query types; handlers were checked where they were written.
  handler: RouteHandler<any, any>;
}

function route<B, Q>(method: ChannelRoute["method"], path: string, spec: RouteSpec<B, Q> | RouteHandler): ChannelRoute {
  const full = typeof spec === "function" ? { handler: spec } : spec;
  return {
    method,
    path,
    description: full.description,
    bodySchema: full.bodySchema as ZodLike | undefined,
    querySchema: full.querySchema as ZodLike | undefined,
    handler: full.handler as ChannelRoute["handler"],
  };
}

/** `POST(path, { description?, bodySchema?, querySchema?, handler })` or `POST(path, handler)`. */
export function POST<BodySchema extends ZodLike | undefined = undefined, QuerySchema extends ZodLike | undefined = undefined>(
  path: string,
  spec: RouteSpec<BodySchema, QuerySchema> | RouteHandler,
): ChannelRoute {
  return route("POST", path, spec);
}

/** `GET(path, { description?, querySchema?, handler })` or `GET(path, handler)`. */
export function GET<QuerySchema extends ZodLike | undefined = undefined>(
  path: string,
  spec: RouteSpec<undefined, QuerySchema> | RouteHandler,
): ChannelRoute {
  return route("GET", path, spec);
}

export interface ChannelEventContext {
  session: { id: string; purpose?: string };
  host: HostServices;
  artifacts: ArtifactsApi;
}

export type ChannelEventHandlers<TState> = {
  [T in EventType]?: (
    event: Readonly<BdkEvent<T>>,
    channel: { id: string; state: TState },
    ctx: ChannelEventContext,
  ) => void | Promise<void>;
};

export interface ChannelDefinition<TState = unknown> {
  auth?: AuthPolicy[];
  /** Default state for sessions started without one. */
  state?: TState;
  routes: ChannelRoute[];
  /** Delivery events for sessions started through this channel (also via `receive`). */
  events?: ChannelEventHandlers<TState>;
  /** Set by the Slack and GitHub packs. */
  pack?: "slack" | "github";
}

/**
 * `bot/channels/<id>.ts`: HTTP routes under `/v1/channels/<id>` plus delivery events.
 *
 * @example
 * export default defineChannel<{ source: string }>({
 *   routes: [POST("/alert", { bodySchema: z.object({ message: z.string() }), async handler(_req, { body, send }) {
 *     await send(body.message); return new Response(null, { status: 202 });
 *   } })],
 * });
 */
export function defineChannel<TState = unknown>(definition: ChannelDefinition<TState>): ChannelDefinition<TState> {
  return brand("channel", definition);
}
