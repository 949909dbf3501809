/**
 * The SDK's authorization code flow (discovery, dynamic registration, PKCE)
 * for one `oauth: true` connection, in two halves: `startAuthorization`
 * yields the URL a person opens, `finish` exchanges the code the browser
 * brings back. `bdk mcp oauth` runs both around a loopback callback; under
 * `serve --dev` the server's own callback route finishes it. Either way the
 * tokens land in the connection's file under the state root, where the
 * server's connections read them.
 */
import { randomBytes } from "node:crypto";
import type { RemoteConnection } from "../authoring/connections.ts";
import type { ResolvedAgent } from "../load/types.ts";
import { messageOf } from "../protocol/errors.ts";
import { startOAuthCallback } from "./oauth-callback.ts";
import { FileOAuthProvider, oauthFile, readOAuthRecord } from "./oauth-store.ts";

export interface StartAuthorizationOptions {
  name: string;
  definition: RemoteConnection;
  stateRoot: string;
  /** Where the authorization server sends the browser back with `code` and `state`. */
  redirectUrl: string;
}

export interface StartedAuthorization {
  /** The page the person opens; absent when the server issued tokens without one (nothing left to do). */
  authorizationUrl?: URL;
  /** Travels through the browser: only the redirect carrying it may finish this flow. */
  state: string;
  /** The connection's token file. */
  file: string;
  /** Exchanges the code the browser brought back and saves the tokens. */
  finish(code: string): Promise<void>;
}

/** Starts the flow; stored tokens stay in use until `finish` succeeds. */
export async function startAuthorization(options: StartAuthorizationOptions): Promise<StartedAuthorization> {
  const { auth } = await import("@modelcontextprotocol/sdk/client/auth.js");
  const serverUrl = new URL(options.definition.url).href;
  const file = oauthFile(options.stateRoot, options.name);
  const state = randomBytes(16).toString("hex");
  let authorizationUrl: URL | undefined;
  const provider = await FileOAuthProvider.open(serverUrl, {
    connection: options.name,
    file,
    interactive: { redirectUrl: options.redirectUrl, state, onAuthorizationUrl: (url) => void (authorizationUrl = url) },
  });
  const failed = (error: unknown) => new Error(`authorizing "${options.name}" at ${serverUrl}: ${withCause(error)}`);
  try {
    // Stored tokens are hidden from this run, so the SDK asks for the browser; "AUTHORIZED" would leave nothing to do.
    if ((await auth(provider, { serverUrl })) === "AUTHORIZED") authorizationUrl = undefined;
  } catch (error) {
    throw failed(error);
  }
  return {
    authorizationUrl,
    state,
    file,
    async finish(code) {
      try {
        if ((await auth(provider, { serverUrl, authorizationCode: code })) !== "AUTHORIZED") {
          throw new Error("the authorization server did not issue a token");
        }
      } catch (error) {
        throw failed(error);
      }
    },
  };
}

export interface AuthorizeConnectionOptions {
  name: string;
  definition: RemoteConnection;
  stateRoot: string;
  /** Shows the authorization URL to the person (print it, open a browser). */
  onAuthorizationUrl: (url: URL) => void | Promise<void>;
  /** How long to wait for the browser to come back (default 5 minutes). */
  timeoutMs?: number;
}

export const AUTHORIZATION_TIMEOUT_MS = 5 * 60_000;

/** `bdk mcp oauth`: the whole flow around a loopback callback; resolves with the file the tokens were saved in. */
export async function authorizeConnection(options: AuthorizeConnectionOptions): Promise<{ file: string }> {
  const serverUrl = new URL(options.definition.url).href;
  const previous = await readOAuthRecord(oauthFile(options.stateRoot, options.name), serverUrl);
  const callback = await startOAuthCallback(previous.redirectUrl ? Number(new URL(previous.redirectUrl).port) : undefined);
  try {
    const flow = await startAuthorization({ ...options, redirectUrl: callback.redirectUrl });
    if (flow.authorizationUrl) {
      await options.onAuthorizationUrl(flow.authorizationUrl);
      const code = await callback.waitForCode(flow.state, options.timeoutMs ?? AUTHORIZATION_TIMEOUT_MS).catch((error: unknown) => {
        throw new Error(`authorizing "${options.name}" at ${serverUrl}: ${messageOf(error)}`);
      });
      await flow.finish(code);
    }
    return { file: flow.file };
  } finally {
    await callback.close();
  }
}

/** The `oauth: true` remote connection named `name`, or why there is none (listing the ones there are). */
export function oauthConnection(agent: ResolvedAgent, name: string): { definition: RemoteConnection } | { problem: string } {
  const oauthNames = [...agent.connections.values()]
    .filter((connection) => connection.kind === "remote" && (connection.definition as RemoteConnection).oauth === true)
    .map((connection) => connection.name);
  const known = `OAuth connections of this agent: ${oauthNames.length > 0 ? oauthNames.join(", ") : "none"}`;
  const connection = agent.connections.get(name);
  if (!connection) return { problem: `no connection named "${name}"; ${known}` };
  if (!oauthNames.includes(name)) return { problem: `connection "${name}" is not a remote connection with oauth: true; ${known}` };
  return { definition: connection.definition as RemoteConnection };
}

/** fetch's own message is "fetch failed"; the reason (ECONNREFUSED, a TLS error) is its cause. */
function withCause(error: unknown): string {
  const cause = error instanceof Error && error.cause !== undefined ? messageOf(error.cause) : undefined;
  return cause ? `${messageOf(error)} (${cause})` : messageOf(error);
}
