/**
 * Opens one MCP client for a connection: a stdio child, a remote server
 * (streamable HTTP, then SSE) or a peer agent. The SDK is imported on first
 * use, so agents without connections never load it.
 */
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { PeerConnection, RemoteConnection, StdioConnection } from "../authoring/connections.ts";
import type { Logger } from "../host/logger.ts";
import type { ResolvedConnection } from "../load/types.ts";
import { messageOf } from "../protocol/errors.ts";
import { trackChild } from "./child-reaper.ts";
import { diesWithParent } from "./dies-with-parent.ts";
import { FileOAuthProvider, NeedsAuthorizationError, oauthFile } from "./oauth-store.ts";
import { kitJsonSchemaValidator } from "./schema-validator.ts";
import { baseChildEnv, type Env, resolveTemplates } from "./templates.ts";

export interface OpenClientOptions {
  /** Project root: a stdio `cwd` is relative to it. */
  rootDir: string;
  env: Env;
  logger: Logger;
  connectPeer?: (agentSlug: string) => Promise<Transport>;
  /** The agent's state root: `oauth: true` connections keep their tokens under it. */
  stateRoot?: string;
  /** Limit on the MCP `initialize` handshake. */
  timeoutMs: number;
}

export interface OpenedClient {
  client: Client;
  /** The stdio child's pid. */
  pid?: number;
  /** Settles when the transport closes, whoever closed it (a crashed child, a dropped stream, `close`). */
  closed: Promise<void>;
  /** Closes the client (for stdio: ends stdin, then SIGTERM, then SIGKILL). */
  close(): Promise<void>;
}

const STDERR_TAIL_LINES = 10;

export async function openClient(connection: ResolvedConnection, options: OpenClientOptions): Promise<OpenedClient> {
  switch (connection.kind) {
    case "stdio":
      return openStdio(connection.name, connection.definition as StdioConnection, options);
    case "remote":
      return openRemote(connection.name, connection.definition as RemoteConnection, options);
    case "peer":
      return openPeer((connection.definition as PeerConnection).agent, options);
  }
}

async function newClient(): Promise<Client> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  return new Client({ name: "bdk", version: "1" }, { capabilities: {}, jsonSchemaValidator: kitJsonSchemaValidator });
}

async function connect(transport: Transport, options: OpenClientOptions): Promise<OpenedClient> {
  const client = await newClient();
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  const closed = new Promise<void>((resolve) => {
    client.onclose = resolve;
  });
  return { client, closed, close: () => client.close() };
}

/**
 * The child gets a minimal environment (HOME, PATH, ...) plus the
 * connection's own `env`: server secrets reach it only when named there.
 * Its stderr goes to the agent's log (debug lines); the last lines are
 * quoted when it fails to start.
 */
async function openStdio(name: string, definition: StdioConnection, options: OpenClientOptions): Promise<OpenedClient> {
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const env = { ...baseChildEnv(options.env), ...resolveTemplates(definition.env, options.env) };
  const cwd = path.resolve(options.rootDir, definition.cwd ?? ".");
  const transport = new StdioClientTransport({ ...diesWithParent(definition.command, definition.args ?? [], env, cwd), env, cwd, stderr: "pipe" });
  const tail: string[] = [];
  let partial = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.trim()) continue;
      options.logger.debug(`mcp ${name}: ${line}`, { connection: name, stream: "stderr" });
      tail.push(line);
      if (tail.length > STDERR_TAIL_LINES) tail.shift();
    }
  });
  let untrack = () => {};
  // Tracked the moment the child exists, so even a hung handshake cannot leave it behind.
  const started = transport.start.bind(transport);
  transport.start = async () => {
    await started();
    if (transport.pid !== null) untrack = trackChild(transport.pid);
  };
  let opened: OpenedClient;
  try {
    opened = await connect(transport, options);
  } catch (error) {
    untrack();
    if (partial.trim()) tail.push(partial);
    const command = [definition.command, ...(definition.args ?? [])].join(" ");
    const stderr = tail.length > 0 ? `; its stderr ended with: ${tail.join(" | ")}` : "";
    throw new Error(`could not start "${command}": ${messageOf(error)}${stderr}`);
  }
  void opened.closed.then(untrack);
  return { ...opened, pid: transport.pid ?? undefined };
}

/**
 * Streamable HTTP first; a 4xx other than 401/403 means the server may speak
 * only the older SSE transport. An `oauth: true` connection sends its stored
 * token (the SDK refreshes an expired one); without a usable token it fails
 * with `NeedsAuthorizationError`.
 */
async function openRemote(name: string, definition: RemoteConnection, options: OpenClientOptions): Promise<OpenedClient> {
  const url = new URL(definition.url);
  const requestInit = { headers: resolveTemplates(definition.headers, options.env) };
  const authProvider = definition.oauth ? await storedOAuth(name, url, options) : undefined;
  const unauthorized = (error: unknown) => (authProvider ? asNeedsAuthorization(name, error) : undefined);
  const { StreamableHTTPClientTransport, StreamableHTTPError } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  try {
    return await connect(new StreamableHTTPClientTransport(url, { requestInit, authProvider }), options);
  } catch (error) {
    const needsAuthorization = await unauthorized(error);
    if (needsAuthorization) throw needsAuthorization;
    const status = error instanceof StreamableHTTPError ? (error.code ?? 0) : 0;
    if (status === 401 || status === 403) throw new Error(`the server answered HTTP ${status} (${messageOf(error)}); check the headers`);
    if (status < 400 || status >= 500) throw error;
    const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
    try {
      return await connect(new SSEClientTransport(url, { requestInit, authProvider }), options);
    } catch (sseError) {
      const sseNeedsAuthorization = await unauthorized(sseError);
      if (sseNeedsAuthorization) throw sseNeedsAuthorization;
      throw new Error(`streamable HTTP failed (${messageOf(error)}), then SSE failed (${messageOf(sseError)})`);
    }
  }
}

/** The connection's stored OAuth state; no token at all fails at once, without a request. */
async function storedOAuth(name: string, url: URL, options: OpenClientOptions): Promise<FileOAuthProvider> {
  if (!options.stateRoot) throw new Error("OAuth connections need the agent's state root, and none was given");
  const provider = await FileOAuthProvider.open(url.href, { connection: name, file: oauthFile(options.stateRoot, name) });
  // Without a client as well, the SDK would register one from the server: that is the CLI's job.
  if (!provider.tokens() || !provider.clientInformation()) throw new NeedsAuthorizationError(name, true);
  return provider;
}

/** A rejected token the SDK could not refresh, in any of the shapes the transports report it. */
export async function asNeedsAuthorization(name: string, error: unknown): Promise<NeedsAuthorizationError | undefined> {
  if (error instanceof NeedsAuthorizationError) return error;
  const { UnauthorizedError } = await import("@modelcontextprotocol/sdk/client/auth.js");
  const status = (error as { code?: unknown } | undefined)?.code;
  return error instanceof UnauthorizedError || status === 401 ? new NeedsAuthorizationError(name, false) : undefined;
}

/** A peer agent is reached through the transport the host injects (its in-process MCP server). */
async function openPeer(agent: string, options: OpenClientOptions): Promise<OpenedClient> {
  const notMounted = `peer agent "${agent}" is not mounted on this host`;
  if (!options.connectPeer) throw new Error(notMounted);
  let transport: Transport;
  try {
    transport = await options.connectPeer(agent);
  } catch (error) {
    throw new Error(`${notMounted} (${messageOf(error)})`);
  }
  return connect(transport, options);
}
