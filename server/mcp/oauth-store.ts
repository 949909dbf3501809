/**
 * OAuth state of `oauth: true` connections, one JSON file per connection
 * under the agent's state root (`<stateRoot>/mcp-oauth/<name>.json`, mode
 * 0600), and the SDK's `OAuthClientProvider` over it. The interactive flow
 * (`bdk mcp oauth`, or Connect in the playground of `serve --dev`) fills the
 * file; connections only read it and let the SDK refresh expired tokens.
 */
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

export interface OAuthRecord {
  /** The MCP server these credentials are for: a connection whose URL changed starts over. */
  serverUrl: string;
  /** The loopback redirect URL `clientInformation` was registered with. */
  redirectUrl?: string;
  clientInformation?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /**
   * A `bdk mcp oauth` under way: its registration and PKCE verifier. They
   * replace the fields above only when its tokens arrive, so a refused or
   * abandoned run leaves working credentials alone.
   */
  pending?: { redirectUrl: string; clientInformation?: OAuthClientInformationMixed; codeVerifier?: string };
}

/** Thrown when a connection has no usable token: only a person can fix that, with the CLI. */
export class NeedsAuthorizationError extends Error {
  constructor(
    readonly connection: string,
    /** True when no token was stored at all (nothing was sent): retrying costs only a file read. */
    readonly noTokens: boolean,
  ) {
    super(`connection "${connection}" needs authorization: run bdk mcp oauth ${connection}`);
    this.name = "NeedsAuthorizationError";
  }
}

export function oauthFile(stateRoot: string, connection: string): string {
  return path.join(stateRoot, "mcp-oauth", `${connection}.json`);
}

/** The record for `serverUrl`, or an empty one (no file, unreadable, or written for another URL). */
export async function readOAuthRecord(file: string, serverUrl: string): Promise<OAuthRecord> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return { serverUrl };
  }
  try {
    const record = JSON.parse(text) as OAuthRecord;
    return record.serverUrl === serverUrl ? record : { serverUrl };
  } catch {
    return { serverUrl };
  }
}

/** Written to a temporary file and renamed, so a reader (the server) never sees half a record. */
export async function writeOAuthRecord(file: string, record: OAuthRecord): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export interface FileOAuthProviderOptions {
  connection: string;
  file: string;
  /**
   * The interactive flow (the CLI): the loopback URL the browser comes back
   * to, and what to do with the authorization URL. Without it (the server),
   * any need for a person is a `NeedsAuthorizationError`.
   */
  interactive?: { redirectUrl: string; onAuthorizationUrl: (url: URL) => void | Promise<void>; state: string };
}

/** The SDK's OAuth client over one connection's record; every change is written through. */
export class FileOAuthProvider implements OAuthClientProvider {
  /** Interactive: set once this run's tokens are saved (stored ones are not used before). */
  private authorized = false;
  /** Interactive: the authorization server refused the stored client, so it is not offered again. */
  private storedClientRefused = false;

  private constructor(
    private record: OAuthRecord,
    private readonly options: FileOAuthProviderOptions,
  ) {}

  static async open(serverUrl: string, options: FileOAuthProviderOptions): Promise<FileOAuthProvider> {
    return new FileOAuthProvider(await readOAuthRecord(options.file, serverUrl), options);
  }

  get redirectUrl(): string {
    // The server must still return one: without it the SDK would take the flow for a non-interactive
    // client_credentials grant. It is only used if tokens must be obtained anew, which then fails.
    return this.options.interactive?.redirectUrl ?? this.record.redirectUrl ?? "http://127.0.0.1/callback";
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: `bdk (${this.options.connection})`,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      // A CLI on someone's machine cannot keep a secret; PKCE protects the code.
      token_endpoint_auth_method: "none",
    };
  }

  state(): string {
    return this.options.interactive?.state ?? "";
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (!this.options.interactive) return this.record.clientInformation;
    // A pending registration is reused only for the redirect URL it was registered with
    // (an abandoned run on another port or host would be refused by the authorization server).
    const pending = this.record.pending;
    if (pending?.clientInformation && pending.redirectUrl === this.redirectUrl) return pending.clientInformation;
    // A client registered for another redirect URL (an earlier run's port was taken) would be refused it.
    const reusable = !this.storedClientRefused && this.record.redirectUrl === this.redirectUrl;
    return reusable ? this.record.clientInformation : undefined;
  }

  async saveClientInformation(clientInformation: OAuthClientInformationMixed): Promise<void> {
    if (this.options.interactive) await this.updatePending({ clientInformation });
    else await this.update({ clientInformation });
  }

  tokens(): OAuthTokens | undefined {
    // The CLI authorizes anew even when a refresh token is stored (another account, new scopes).
    if (this.options.interactive && !this.authorized) return undefined;
    return this.record.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    if (!this.options.interactive) return this.saveRefreshedTokens(tokens);
    this.authorized = true;
    const clientInformation = this.clientInformation();
    await this.update({ redirectUrl: this.redirectUrl, clientInformation, tokens, pending: undefined });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.options.interactive) throw new NeedsAuthorizationError(this.options.connection, false);
    await this.options.interactive.onAuthorizationUrl(authorizationUrl);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    // Only the CLI starts an authorization (the server gives up right after, in redirectToAuthorization).
    if (this.options.interactive) await this.updatePending({ codeVerifier });
  }

  codeVerifier(): string {
    const verifier = this.record.pending?.codeVerifier;
    if (!verifier) throw new Error("no PKCE code verifier is stored: start the authorization again");
    return verifier;
  }

  /**
   * The SDK calls this when the authorization server rejects what is stored
   * (an invalid refresh token or client), then starts over. The server stops
   * there: starting over would register a new client and need a person.
   */
  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "discovery") return;
    const client = scope === "all" || scope === "client";
    if (this.options.interactive) {
      if (client) this.storedClientRefused = true;
      if (client || scope === "verifier") await this.updatePending({ clientInformation: undefined, codeVerifier: undefined });
      return;
    }
    await this.update({
      ...(client ? { clientInformation: undefined } : {}),
      ...(client || scope === "tokens" ? { tokens: undefined } : {}),
    });
    if (scope !== "verifier") throw new NeedsAuthorizationError(this.options.connection, false);
  }

  /**
   * The server refreshed a token. `bdk mcp oauth` may have authorized anew
   * since this record was read: then the file (another client, newer tokens)
   * wins, and these tokens, issued to the old client, are not written.
   */
  private async saveRefreshedTokens(tokens: OAuthTokens): Promise<void> {
    const current = await readOAuthRecord(this.options.file, this.record.serverUrl);
    if (current.clientInformation?.client_id !== this.record.clientInformation?.client_id) {
      this.record = current;
      return;
    }
    this.record = { ...current, tokens };
    await writeOAuthRecord(this.options.file, this.record);
  }

  /** The pending registration travels with the redirect URL it was made for; a verifier alone does not move it. */
  private updatePending(change: Partial<NonNullable<OAuthRecord["pending"]>>): Promise<void> {
    const previous = this.record.pending;
    const sameUrl = previous?.redirectUrl === this.redirectUrl;
    const clientInformation = "clientInformation" in change ? change.clientInformation : sameUrl ? previous?.clientInformation : undefined;
    return this.update({ pending: { ...previous, ...change, clientInformation, redirectUrl: this.redirectUrl } });
  }

  private async update(change: Partial<OAuthRecord>): Promise<void> {
    this.record = { ...this.record, ...change };
    await writeOAuthRecord(this.options.file, this.record);
  }
}
