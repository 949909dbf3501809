/**
 * The MCP clients of one agent: opened on first use, reused across turns,
 * closed on shutdown. A connection that fails keeps its error (for `info`)
 * and is retried on a use at least `retryAfterMs` later. Under `--dev`, a
 * model's call whose connection needs authorization parks until the
 * playground's Connect flow stores tokens, then runs once more.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ToolContext } from "../authoring/tools.ts";
import type { HostMcpCallResult } from "../authoring/types.ts";
import type { Logger } from "../host/logger.ts";
import type { LoadedTool, ResolvedAgent, ResolvedConnection } from "../load/types.ts";
import { BdkError, messageOf } from "../protocol/errors.ts";
import { AuthorizationWaits } from "./authorization-waits.ts";
import { connectionTool, connectTool, type McpTool, modelToolName, toolAllowed } from "./connection-tools.ts";
import { NeedsAuthorizationError } from "./oauth-store.ts";
import { asNeedsAuthorization, openClient, type OpenedClient } from "./open-client.ts";
import { kitJsonSchemaValidator } from "./schema-validator.ts";
import type { Env } from "./templates.ts";

export interface McpConnectionsOptions {
  /** The agent now (it changes on a hot reload). */
  agent: () => ResolvedAgent;
  /** Read each time a client opens, for `${NAME}` templates. */
  env: Env;
  logger: Logger;
  /** The host's in-process MCP server of another agent; without it, peer connections fail. */
  connectPeer?: (agentSlug: string) => Promise<Transport>;
  /** The agent's state root: `oauth: true` connections read their tokens from it. */
  stateRoot?: string;
  /** A failed connection is not retried sooner than this (default 30 s). */
  retryAfterMs?: number;
  /** Limit on the `initialize` handshake (default 30 s). */
  connectTimeoutMs?: number;
  now?: () => number;
  /**
   * `serve --dev` only: a model's call whose connection needs authorization
   * reports it here (the session records it for the playground) and waits
   * for `authorized(name)` instead of failing.
   */
  onAuthorizationRequired?: (notice: AuthorizationNotice) => void;
}

export interface AuthorizationNotice {
  sessionId: string;
  toolCallId: string;
  connection: string;
}

export interface ConnectionStatus {
  name: string;
  status: "idle" | "connected" | "error";
  error?: string;
  /** The exposed tool names (after include/exclude), once connected. */
  tools?: string[];
}

interface Entry {
  connection: ResolvedConnection;
  /** The definition as JSON: a reload that changes it replaces the client. */
  key: string;
  opening?: Promise<OpenedClient>;
  opened?: OpenedClient;
  tools?: McpTool[];
  modelTools?: LoadedTool[];
  error?: string;
  failedAt?: number;
  /** The failure was "no token stored": checking again reads one file, and `bdk mcp oauth` may have run since. */
  retryNow?: boolean;
  /** The last failure was a missing or refused token: only a person can fix it. */
  needsAuthorization?: boolean;
}

/** One try of a call; `needsAuthorization` says a person could make a second one succeed. */
interface Attempt {
  result: HostMcpCallResult;
  needsAuthorization?: boolean;
}

export const DEFAULT_RETRY_AFTER_MS = 30_000;
/** The SDK's default of 60 s is short for real tools; a turn's stop still cancels the call at once. */
const CALL_TIMEOUT_MS = 10 * 60_000;

export class McpConnections {
  private readonly entries = new Map<string, Entry>();
  /** How many times each connection was authorized in this process (a parked call compares before and after). */
  private readonly authorizations = new Map<string, number>();
  /** Clients replaced or removed by a reload, still closing: `close()` waits for them too. */
  private readonly retiring = new Set<Promise<void>>();
  private seen?: Map<string, ResolvedConnection>;
  private closed = false;
  private readonly waits = new AuthorizationWaits();

  constructor(private readonly options: McpConnectionsOptions) {}

  /** All connection names, host ones included. */
  names(): string[] {
    return [...this.options.agent().connections.keys()];
  }

  /** Whether turns of `agent` need to wait for connection tools. */
  static offersTools(agent: ResolvedAgent): boolean {
    for (const connection of agent.connections.values()) if (advertised(connection)) return true;
    return false;
  }

  /**
   * The model-visible tools of `agent` (scope "model", `advertiseTools` not
   * false), opening clients as needed; a connection that fails adds none.
   */
  async modelTools(agent: ResolvedAgent = this.options.agent()): Promise<LoadedTool[]> {
    const connections = [...agent.connections.values()].filter(advertised);
    const lists = await Promise.all(
      connections.map(async (connection) => {
        const entry = this.entryFor(connection);
        try {
          await this.ensure(entry);
        } catch {
          // Under --dev, a connection waiting for a person still offers its tools (as last listed, or a
          // stand-in that connects it), so that a call can park the turn and the playground show Connect.
          if (!this.options.onAuthorizationRequired || !entry.needsAuthorization) return [];
          return entry.modelTools ?? [connectTool(connection.name, (ctx) => this.modelCall(connection.name, ctx, () => this.connectAttempt(connection.name)))];
        }
        entry.modelTools ??= (entry.tools ?? []).map((tool) =>
          connectionTool(connection.name, tool, kitJsonSchemaValidator, (args, ctx) =>
            this.modelCall(connection.name, ctx, () => this.attempt(connection.name, tool.name, args, ctx.abortSignal)),
          ),
        );
        return entry.modelTools;
      }),
    );
    return lists.flat();
  }

  /**
   * `ctx.host.mcp.callTool`: the raw `CallToolResult`. An unknown connection
   * throws `not_found`; a connection that cannot start, a filtered-out tool
   * or a failed call give an error result naming the connection and cause.
   */
  async callTool(connection: string, tool: string, args: Record<string, unknown> = {}, signal?: AbortSignal): Promise<HostMcpCallResult> {
    return (await this.attempt(connection, tool, args, signal)).result;
  }

  /**
   * New tokens were stored for `name` (the dev Connect flow): its client
   * reopens with them on the next use, and the calls parked on it run again.
   */
  authorized(name: string): void {
    this.authorizations.set(name, (this.authorizations.get(name) ?? 0) + 1);
    const entry = this.entries.get(name);
    if (entry) {
      this.entries.delete(name);
      this.retire(entry);
    }
    this.waits.release(name);
  }

  /** How many model calls wait for `name` to be authorized. */
  parkedCalls(name: string): number {
    return this.waits.count(name);
  }

  /** Each connection's state for `info`: idle until first used (or while opening). */
  status(): ConnectionStatus[] {
    return [...this.options.agent().connections.values()].map((connection) => {
      const entry = this.entries.get(connection.name);
      if (entry?.key !== keyOf(connection)) return { name: connection.name, status: "idle" };
      if (entry.opened) return { name: connection.name, status: "connected", tools: (entry.tools ?? []).map((tool) => tool.name) };
      if (entry.error !== undefined) return { name: connection.name, status: "error", error: entry.error };
      return { name: connection.name, status: "idle" };
    });
  }

  /** Closes every client (stdio children exit); later uses fail. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...[...this.entries.values()].map((entry) => this.closeEntry(entry)), ...this.retiring]);
    this.entries.clear();
  }

  private retire(entry: Entry): void {
    const closing = this.closeEntry(entry).catch(() => {});
    this.retiring.add(closing);
    void closing.then(() => this.retiring.delete(closing));
  }

  /**
   * A model's call. Under `--dev`, one that needs authorization is recorded
   * on its session and waits for `authorized()` (or the turn's stop), then
   * runs once more; elsewhere, and for direct calls, its error is the result.
   */
  private async modelCall(name: string, ctx: ToolContext, run: () => Promise<Attempt>): Promise<HostMcpCallResult> {
    const generation = this.authorizations.get(name) ?? 0;
    const first = await run();
    const notify = this.options.onAuthorizationRequired;
    const signal = ctx.abortSignal;
    if (!first.needsAuthorization || !notify || ctx.toolCallId === undefined || signal.aborted) return first.result;
    // Authorized while this attempt was under way (it read the old tokens): try again rather than wait.
    if ((this.authorizations.get(name) ?? 0) !== generation) return (await run()).result;
    try {
      notify({ sessionId: ctx.session.id, toolCallId: ctx.toolCallId, connection: name });
    } catch {
      // Nowhere to show Connect (the session is gone, the store is busy): answer as outside dev.
      return first.result;
    }
    try {
      await this.waits.wait(name, signal);
    } catch {
      throw new Error(`The turn was stopped while "${name}" waited for authorization.`);
    }
    return (await run()).result;
  }

  /** The connection's entry, open; or the error result of a connection that cannot start. */
  private async ready(name: string): Promise<{ entry: Entry; opened: OpenedClient } | { failed: Attempt }> {
    const resolved = this.options.agent().connections.get(name);
    if (!resolved) {
      const known = this.names();
      throw new BdkError("not_found", `No MCP connection named "${name}". Known: ${known.length > 0 ? known.join(", ") : "none"}.`);
    }
    const entry = this.entryFor(resolved);
    try {
      return { entry, opened: await this.ensure(entry) };
    } catch (error) {
      const result = errorResult(`MCP connection "${name}" is unavailable: ${messageOf(error)}`);
      return { failed: { result, needsAuthorization: entry.needsAuthorization } };
    }
  }

  private async attempt(name: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<Attempt> {
    const resolved = this.options.agent().connections.get(name);
    if (resolved && !toolAllowed(resolved.definition, tool)) {
      return { result: errorResult(`MCP connection "${name}" does not expose the tool "${tool}" (its include/exclude filters hide it).`) };
    }
    const ready = await this.ready(name);
    if ("failed" in ready) return ready.failed;
    const { entry, opened } = ready;
    try {
      const options = { signal, timeout: CALL_TIMEOUT_MS };
      return { result: (await opened.client.callTool({ name: tool, arguments: args }, undefined, options)) as HostMcpCallResult };
    } catch (error) {
      // An answer from the server (McpError) leaves the client as it is. Anything else is the
      // link itself: a rejected token (the next use reads what `bdk mcp oauth` stored since), a
      // remote server that restarted and forgot the session, a dead socket. The next use reopens.
      if (isServerAnswer(error) || signal?.aborted) return { result: errorResult(`MCP connection "${name}", tool "${tool}": ${messageOf(error)}`) };
      void opened.close().catch(() => {});
      const needsAuthorization = entry.connection.kind === "remote" && (await asNeedsAuthorization(name, error)) !== undefined;
      if (needsAuthorization) entry.needsAuthorization = true;
      return { result: errorResult(`MCP connection "${name}", tool "${tool}": ${messageOf(error)}`), needsAuthorization };
    }
  }

  /** The `<connection>__connect` stand-in: opening the client is the whole call. */
  private async connectAttempt(name: string): Promise<Attempt> {
    const ready = await this.ready(name);
    if ("failed" in ready) return ready.failed;
    const tools = (ready.entry.tools ?? []).map((tool) => modelToolName(name, tool.name));
    return { result: { content: [{ type: "text", text: `Connected ${name}. Its tools are offered from the next message on: ${tools.join(", ") || "none"}.` }] } };
  }

  /**
   * The entry of this connection as the current agent defines it (a turn
   * that started before a reload uses the new definition), replacing one
   * whose definition changed.
   */
  private entryFor(connection: ResolvedConnection): Entry {
    this.forgetRemoved();
    connection = this.options.agent().connections.get(connection.name) ?? connection;
    const key = keyOf(connection);
    const existing = this.entries.get(connection.name);
    if (existing?.key === key) return existing;
    if (existing) this.retire(existing);
    const entry: Entry = { connection, key };
    this.entries.set(connection.name, entry);
    return entry;
  }

  /** After a reload, clients of connections that no longer exist are closed. */
  private forgetRemoved(): void {
    const current = this.options.agent().connections;
    if (current === this.seen) return;
    this.seen = current;
    for (const [name, entry] of this.entries) {
      if (current.has(name)) continue;
      this.entries.delete(name);
      this.retire(entry);
    }
  }

  private ensure(entry: Entry): Promise<OpenedClient> {
    if (this.closed) return Promise.reject(new BdkError("not_ready", "the agent is shutting down"));
    if (entry.opened) return Promise.resolve(entry.opened);
    if (entry.opening) return entry.opening;
    const now = this.now();
    const retryAfter = this.options.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS;
    if (entry.error !== undefined && !entry.retryNow && entry.failedAt !== undefined && now - entry.failedAt < retryAfter) {
      return Promise.reject(new Error(`${entry.error} (retried ${Math.ceil((entry.failedAt + retryAfter - now) / 1000)} s from now)`));
    }
    entry.opening = this.open(entry);
    return entry.opening;
  }

  private async open(entry: Entry): Promise<OpenedClient> {
    const { name } = entry.connection;
    let opened: OpenedClient | undefined;
    try {
      opened = await openClient(entry.connection, {
        rootDir: this.options.agent().rootDir,
        env: this.options.env,
        logger: this.options.logger,
        connectPeer: this.options.connectPeer,
        stateRoot: this.options.stateRoot,
        timeoutMs: this.options.connectTimeoutMs ?? 30_000,
      });
      const tools = await listTools(opened);
      if (this.closed || this.entries.get(name) !== entry) throw new Error("closed while opening");
      const exposed = tools.filter((tool) => toolAllowed(entry.connection.definition, tool.name));
      Object.assign(entry, {
        opened,
        tools: exposed,
        modelTools: undefined,
        opening: undefined,
        error: undefined,
        failedAt: undefined,
        retryNow: undefined,
        needsAuthorization: undefined,
      });
      const current = opened;
      void current.closed.then(() => this.onClosed(entry, current));
      this.options.logger.info(`MCP connection "${name}" connected (${exposed.length} tool${exposed.length === 1 ? "" : "s"}).`);
      return current;
    } catch (error) {
      await opened?.close().catch(() => {});
      const needsAuthorization = error instanceof NeedsAuthorizationError;
      const retryNow = needsAuthorization && error.noTokens;
      Object.assign(entry, { error: messageOf(error), failedAt: this.now(), retryNow, needsAuthorization, opening: undefined, opened: undefined });
      this.options.logger.warn(`MCP connection "${name}" failed to start: ${entry.error}`, { connection: name });
      throw error;
    }
  }

  /**
   * A client that closed on its own (a crashed child, a dropped stream) reopens on the next use.
   * Its tools are kept: a reopen replaces them, and under --dev a connection whose token was
   * refused keeps offering them so that a call can park for authorization.
   */
  private onClosed(entry: Entry, opened: OpenedClient): void {
    if (entry.opened !== opened) return;
    entry.opened = undefined;
    if (!this.closed) this.options.logger.warn(`MCP connection "${entry.connection.name}" closed; it reopens on the next use.`);
  }

  private async closeEntry(entry: Entry): Promise<void> {
    const opened = entry.opened ?? (await entry.opening?.catch(() => undefined));
    entry.opened = undefined;
    await opened?.close();
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

function advertised(connection: ResolvedConnection): boolean {
  return connection.scope === "model" && connection.definition.advertiseTools !== false;
}

function keyOf(connection: ResolvedConnection): string {
  return `${connection.scope}:${JSON.stringify(connection.definition)}`;
}

/** Every page of `tools/list`. */
async function listTools(opened: OpenedClient): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await opened.client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

function errorResult(text: string): HostMcpCallResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** A JSON-RPC error the server answered with (the SDK's McpError, matched by name so types.js loads only with a client). */
function isServerAnswer(error: unknown): boolean {
  return error instanceof Error && error.name === "McpError";
}
