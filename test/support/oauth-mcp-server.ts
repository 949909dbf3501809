/**
 * An OAuth-protected MCP server on 127.0.0.1, built from the SDK's server
 * pieces: `mcpAuthRouter` (metadata, registration, authorize, token),
 * `requireBearerAuth` on a stateless streamable HTTP endpoint at `/mcp` with
 * the echo tools, and an in-memory authorization server that approves every
 * request at once (its authorize step redirects straight back with a code).
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { echoServer } from "./mcp-servers.ts";

/** The slice of an express app used here: the kit gets express through the SDK, without its type declarations. */
interface App {
  (req: http.IncomingMessage, res: http.ServerResponse): void;
  use(...handlers: unknown[]): void;
  get(path: string, ...handlers: unknown[]): void;
  post(path: string, ...handlers: unknown[]): void;
}

interface ExpressLikeRequest extends http.IncomingMessage {
  body?: unknown;
}

interface IssuedCode {
  clientId: string;
  codeChallenge: string;
  redirectUri: string;
}

/** Auto-approving authorization server; counts the grants it served. */
export class InMemoryOAuthProvider implements OAuthServerProvider {
  private readonly clients = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<string, IssuedCode>();
  private readonly accessTokens = new Map<string, AuthInfo>();
  private readonly refreshTokens = new Map<string, string>();
  /** `authorization_code` / `refresh_token`, in the order served. */
  readonly grants: string[] = [];
  /** The next authorize redirects back with `error=access_denied` instead of a code. */
  denyNext = false;

  readonly clientsStore: OAuthRegisteredClientsStore = {
    getClient: (clientId) => this.clients.get(clientId),
    registerClient: (client) => {
      const registered: OAuthClientInformationFull = { ...client, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) };
      this.clients.set(registered.client_id, registered);
      return registered;
    },
  };

  get registeredClients(): number {
    return this.clients.size;
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: { redirect(status: number, url: string): void }): Promise<void> {
    const target = new URL(params.redirectUri);
    if (this.denyNext) {
      this.denyNext = false;
      target.searchParams.set("error", "access_denied");
      target.searchParams.set("error_description", "the user said no");
    } else {
      const code = randomUUID();
      this.codes.set(code, { clientId: client.client_id, codeChallenge: params.codeChallenge, redirectUri: params.redirectUri });
      target.searchParams.set("code", code);
    }
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    res.redirect(302, target.href);
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, authorizationCode: string): Promise<string> {
    return this.issuedCode(client, authorizationCode).codeChallenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, authorizationCode: string): Promise<OAuthTokens> {
    this.issuedCode(client, authorizationCode);
    this.codes.delete(authorizationCode);
    this.grants.push("authorization_code");
    return this.issue(client.client_id);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    if (this.refreshTokens.get(refreshToken) !== client.client_id) throw new InvalidGrantError("unknown refresh token");
    this.refreshTokens.delete(refreshToken);
    this.grants.push("refresh_token");
    return this.issue(client.client_id);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const info = this.accessTokens.get(token);
    if (!info) throw new InvalidTokenError("unknown or expired access token");
    return info;
  }

  /** As if every access token had expired: the next request gets 401 and the client must refresh. */
  expireAccessTokens(): void {
    this.accessTokens.clear();
  }

  /** As if the refresh tokens had been revoked too: only a new authorization helps. */
  revokeAll(): void {
    this.accessTokens.clear();
    this.refreshTokens.clear();
  }

  private issuedCode(client: OAuthClientInformationFull, code: string): IssuedCode {
    const issued = this.codes.get(code);
    if (!issued || issued.clientId !== client.client_id) throw new InvalidGrantError("unknown authorization code");
    return issued;
  }

  private issue(clientId: string): OAuthTokens {
    const access = randomUUID();
    const refresh = randomUUID();
    this.accessTokens.set(access, { token: access, clientId, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 });
    this.refreshTokens.set(refresh, clientId);
    return { access_token: access, token_type: "Bearer", expires_in: 3600, refresh_token: refresh };
  }
}

export interface OAuthMcpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  provider: InMemoryOAuthProvider;
  /** Requests that reached the MCP endpoint with a valid token. */
  authorizedRequests: number;
  close(): Promise<void>;
}

export async function startOAuthMcpServer(): Promise<OAuthMcpServer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const mcpUrl = new URL("/mcp", base);
  const provider = new InMemoryOAuthProvider();
  const app: App = createMcpExpressApp({ host: "127.0.0.1" });
  const result: OAuthMcpServer = {
    url: mcpUrl.href,
    provider,
    authorizedRequests: 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  app.use(mcpAuthRouter({ provider, issuerUrl: base, resourceServerUrl: mcpUrl }));
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) });
  app.get("/mcp", bearer, (_req: http.IncomingMessage, res: http.ServerResponse) => res.writeHead(405).end());
  app.post("/mcp", bearer, async (req: ExpressLikeRequest, res: http.ServerResponse) => {
    result.authorizedRequests++;
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void transport.close());
    await echoServer("oauth").connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  server.on("request", app);
  return result;
}
