/**
 * The playground's Connect for `oauth: true` connections (`serve --dev`
 * only): the flow of `bdk mcp oauth`, with the server's own callback route as
 * the redirect target. Between the two requests a flow waits here, keyed by
 * its `state`; after the code exchange the connection reopens with the new
 * tokens and the calls parked on it run again. In memory: a restart forgets
 * flows under way (Connect starts a new one).
 */
import type { ResolvedAgent } from "../load/types.ts";
import { BdkError, messageOf } from "../protocol/errors.ts";
import type { McpConnections } from "./connections.ts";
import { oauthConnection, startAuthorization } from "./oauth-flow.ts";

/** The routes, relative to the agent's base path (`/<slug>` when several agents are mounted). */
export const devAuthorizePath = (connection: string) => `/v1/dev/mcp/${encodeURIComponent(connection)}/authorize`;
export const devCallbackPath = (connection: string) => `/v1/dev/mcp/${encodeURIComponent(connection)}/callback`;

/** A browser that has not come back by then starts over with Connect. */
const FLOW_TTL_MS = 15 * 60_000;
const MAX_FLOWS_PER_CONNECTION = 3;

interface PendingFlow {
  connection: string;
  finish(code: string): Promise<void>;
  timer: NodeJS.Timeout;
}

export interface DevOAuthOptions {
  agent: () => ResolvedAgent;
  stateRoot: string;
  mcp: Pick<McpConnections, "authorized">;
}

export class DevOAuth {
  private readonly pending = new Map<string, PendingFlow>();

  constructor(private readonly options: DevOAuthOptions) {}

  /** Starts a flow: the URL to open, or undefined when the server issued tokens without a browser. */
  async start(connection: string, redirectUrl: string): Promise<URL | undefined> {
    const found = oauthConnection(this.options.agent(), connection);
    if ("problem" in found) {
      // Renamed, removed or no longer OAuth since a call parked (a reload): let those calls retry and fail plainly.
      this.options.mcp.authorized(connection);
      throw new BdkError("not_found", `${capitalized(found.problem)}.`);
    }
    let flow: Awaited<ReturnType<typeof startAuthorization>>;
    try {
      flow = await startAuthorization({ name: connection, definition: found.definition, stateRoot: this.options.stateRoot, redirectUrl });
    } catch (error) {
      throw new BdkError("internal", `Could not start the authorization: ${messageOf(error)}`);
    }
    if (!flow.authorizationUrl) {
      this.options.mcp.authorized(connection);
      return undefined;
    }
    const { state } = flow;
    const timer = setTimeout(() => this.pending.delete(state), FLOW_TTL_MS);
    timer.unref();
    // Several flows may be under way (two clicks, two tabs): whichever comes back first wins.
    // A few per connection at most: older ones are forgotten (their tab gets "click Connect again").
    const mine = [...this.pending].filter(([, pending]) => pending.connection === connection);
    for (const [oldState] of mine.slice(0, Math.max(0, mine.length - (MAX_FLOWS_PER_CONNECTION - 1)))) this.forget(oldState);
    this.pending.set(state, { connection, finish: flow.finish, timer });
    return flow.authorizationUrl;
  }

  /**
   * The browser came back with `code` and `state` (or `error`): exchanges
   * the code, stores the tokens, wakes the parked calls. Throws an
   * `invalid_request` for a request this server did not start or a refusal.
   */
  async complete(connection: string, query: URLSearchParams): Promise<void> {
    const state = query.get("state") ?? "";
    const flow = this.pending.get(state);
    // A stale tab or another site cannot hand us a code: only a redirect carrying a state we issued.
    if (!flow || flow.connection !== connection) {
      throw new BdkError(
        "invalid_request",
        "This authorization is not one the server is waiting for (it expired, already finished, or the server restarted). Click Connect again.",
      );
    }
    this.forget(state);
    const error = query.get("error");
    const code = query.get("code");
    if (error || !code) {
      const description = query.get("error_description");
      throw new BdkError("invalid_request", `The authorization server answered "${error ?? "no code"}"${description ? `: ${description}` : ""}.`);
    }
    try {
      await flow.finish(code);
    } catch (finishError) {
      throw new BdkError("internal", `${capitalized(messageOf(finishError))}.`);
    }
    // The first flow back wins: the others would only replace a client that now works.
    for (const [otherState, other] of this.pending) if (other.connection === connection) this.forget(otherState);
    this.options.mcp.authorized(connection);
  }

  private forget(state: string): void {
    const flow = this.pending.get(state);
    if (!flow) return;
    clearTimeout(flow.timer);
    this.pending.delete(state);
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
