/**
 * `/v1/channels/<id><path>`: custom channel routes and the Slack/GitHub
 * webhooks. Channels authenticate by themselves: a custom channel by its
 * own `auth` array (default: the agent's policies), a pack by its platform
 * signature. A body or query failing the route's schema is a 400 naming the
 * field, and the handler does not run.
 */
import type { ChannelDefinition, ChannelRoute } from "../authoring/channels.ts";
import type { ZodLike } from "../authoring/tools.ts";
import { authenticate, type AuthPolicy, type RequestFacts, requireAuth } from "../auth/policies.ts";
import { matchRoutePath } from "../channels/route-match.ts";
import type { OpenedAgent } from "../host/open-agent.ts";
import { BdkError } from "../protocol/errors.ts";
import { checkSchema } from "../authoring/validate-schema.ts";
import { DEFAULT_BODY_LIMIT, parseJsonText, readBodyBytes } from "./body.ts";
import { clientUrl } from "./public-url.ts";

/** GitHub caps webhook payloads at 25 MB; every other route keeps the default 1 MiB. */
export const GITHUB_BODY_LIMIT = 25 * 1024 * 1024;

export interface ChannelRequest {
  request: Request;
  /** `<id>/<route path>` as it follows `/v1/channels/`. */
  path: string;
  opened: OpenedAgent;
  /** The agent's policies, for channels without their own `auth`. */
  policies: readonly AuthPolicy[];
  facts: RequestFacts;
}

export async function handleChannelRequest({ request, path, opened, policies, facts }: ChannelRequest): Promise<Response> {
  const [channelId = "", ...rest] = path.split("/").filter(Boolean);
  const subPath = `/${rest.join("/")}`;
  const hub = opened.automation.channels;
  const definition = hub.channels.get(channelId);
  if (!definition) {
    const known = [...hub.channels.keys()].join(", ") || "none";
    throw new BdkError("not_found", `No channel "${channelId}" (channels: ${known}).`);
  }

  if (definition.pack) {
    if (request.method !== "POST" || subPath !== "/") {
      throw new BdkError("not_found", `The ${definition.pack} channel "${channelId}" takes POST /v1/channels/${channelId} only.`);
    }
    const rawBody = await readBodyBytes(request, definition.pack === "github" ? GITHUB_BODY_LIMIT : DEFAULT_BODY_LIMIT);
    const devLoopback = authenticate([{ kind: "localDevStrict" }], facts).ok;
    return hub.handlePack(channelId, definition, { headers: request.headers, rawBody, devLoopback });
  }

  const { route, params } = findRoute(channelId, definition, request.method, subPath);
  const auth = requireAuth(definition.auth ?? policies, facts);

  const url = clientUrl(request);
  const query = validated(route.querySchema, Object.fromEntries(new URL(url).searchParams), "query");
  // Read once (no tee: a cancelled branch of one would stall the other), then handed over as a fresh request.
  const bytes = request.method === "POST" ? await readBodyBytes(request) : undefined;
  const body = bytes === undefined ? undefined : validated(route.bodySchema, parseBody(bytes, request.headers, route.bodySchema), "body");
  // Buffer.concat's bytes live in a plain ArrayBuffer, which is what a request body takes.
  const handlerBody = bytes as Uint8Array<ArrayBuffer> | undefined;
  const handlerRequest = new Request(url, { method: request.method, headers: request.headers, body: handlerBody, signal: request.signal });
  const response: unknown = await route.handler(handlerRequest, hub.routeArgs(channelId, { body, query, params, principal: auth.principal }));
  if (!(response instanceof Response)) throw new Error(`The handler of ${route.method} /v1/channels/${channelId}${route.path} returned no Response.`);
  return response;
}

function findRoute(channelId: string, definition: ChannelDefinition, method: string, subPath: string) {
  const matches = definition.routes
    .map((route) => ({ route, params: matchRoutePath(route.path, subPath) }))
    .filter((match): match is { route: ChannelRoute; params: Record<string, string> } => match.params !== undefined);
  const found = matches.find((match) => match.route.method === method);
  if (found) return found;
  const routes = definition.routes.map((route) => `${route.method} ${route.path}`).join(", ") || "none";
  throw new BdkError("not_found", `No ${method} route at /v1/channels/${channelId}${subPath === "/" ? "" : subPath} (routes: ${routes}).`);
}

/** JSON when the body is JSON (always, when the route has a schema); the text otherwise. */
function parseBody(bytes: Buffer, headers: Headers, schema: ZodLike | undefined): unknown {
  const text = bytes.toString("utf8");
  const isJson = schema !== undefined || (headers.get("content-type") ?? "").includes("json");
  if (!isJson) return text === "" ? undefined : text;
  if (text.trim() === "") return schema ? {} : undefined;
  return parseJsonText(text);
}

function validated(schema: ZodLike | undefined, value: unknown, where: "body" | "query"): unknown {
  if (!schema) return value;
  const checked = checkSchema(schema, value);
  if (checked.ok) return checked.value;
  throw new BdkError("invalid_request", `${where}: ${checked.message}`);
}
