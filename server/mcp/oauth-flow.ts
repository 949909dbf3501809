/**
 * `bdk mcp oauth <connection>`: the SDK's authorization code flow (discovery,
 * dynamic registration, PKCE) with a loopback redirect, once, by a person;
 * the tokens land in the connection's file under the state root, where the
 * server's connections read them.
 */
import { randomBytes } from "node:crypto";
import type { RemoteConnection } from "../authoring/connections.ts";
import { messageOf } from "../protocol/errors.ts";
import { startOAuthCallback } from "./oauth-callback.ts";
import { FileOAuthProvider, oauthFile, readOAuthRecord } from "./oauth-store.ts";

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

/** Runs the flow to the end; resolves with the file the tokens were saved in. */
export async function authorizeConnection(options: AuthorizeConnectionOptions): Promise<{ file: string }> {
  const { auth } = await import("@modelcontextprotocol/sdk/client/auth.js");
  const serverUrl = new URL(options.definition.url).href;
  const file = oauthFile(options.stateRoot, options.name);
  const previous = await readOAuthRecord(file, serverUrl);
  const callback = await startOAuthCallback(previous.redirectUrl ? Number(new URL(previous.redirectUrl).port) : undefined);
  try {
    const state = randomBytes(16).toString("hex");
    const provider = await FileOAuthProvider.open(serverUrl, {
      connection: options.name,
      file,
      interactive: { redirectUrl: callback.redirectUrl, state, onAuthorizationUrl: options.onAuthorizationUrl },
    });
    // Stored tokens are hidden from this run, so the SDK asks for the browser; "AUTHORIZED" would leave nothing to do.
    if ((await auth(provider, { serverUrl })) === "AUTHORIZED") return { file };
    const code = await callback.waitForCode(state, options.timeoutMs ?? AUTHORIZATION_TIMEOUT_MS);
    if ((await auth(provider, { serverUrl, authorizationCode: code })) !== "AUTHORIZED") {
      throw new Error("the authorization server did not issue a token");
    }
    return { file };
  } catch (error) {
    throw new Error(`authorizing "${options.name}" at ${serverUrl}: ${withCause(error)}`);
  } finally {
    await callback.close();
  }
}

/** fetch's own message is "fetch failed"; the reason (ECONNREFUSED, a TLS error) is its cause. */
function withCause(error: unknown): string {
  const cause = error instanceof Error && error.cause !== undefined ? messageOf(error.cause) : undefined;
  return cause ? `${messageOf(error)} (${cause})` : messageOf(error);
}
