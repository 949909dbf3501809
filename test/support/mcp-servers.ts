/** Real MCP servers for connection tests: streamable HTTP and SSE on 127.0.0.1, and an in-memory peer. */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { z } from "zod";

/** A server with `say` (echo, prefixed by `who`) and `whoami`. */
export function echoServer(who: string): McpServer {
  const server = new McpServer({ name: who, version: "1.0.0" });
  server.registerTool("say", { description: "Repeats the text", inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: "text", text: `${who}: ${text}` }],
  }));
  server.registerTool("whoami", { description: "Names the server", inputSchema: {} }, async () => ({
    content: [{ type: "text", text: who }],
  }));
  return server;
}

export interface TestMcpHttpServer {
  url: string;
  /** Authorization headers of the requests received, in order. */
  authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

async function listen(handler: http.RequestListener, path: string, authorizations: Array<string | undefined>): Promise<TestMcpHttpServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    authorizations,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Stateless streamable HTTP at `/mcp`; answers 401 unless `Authorization` equals `expectedAuthorization`. */
export function startStreamableServer(expectedAuthorization: string): Promise<TestMcpHttpServer> {
  const authorizations: Array<string | undefined> = [];
  return listen(
    async (req, res) => {
      authorizations.push(req.headers.authorization);
      if (req.headers.authorization !== expectedAuthorization) {
        res.writeHead(401).end("unauthorized");
        return;
      }
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on("close", () => void transport.close());
      await echoServer("remote").connect(transport);
      await transport.handleRequest(req, res);
    },
    "/mcp",
    authorizations,
  );
}

/** The older SSE transport only: `GET /sse` opens the stream, a POST to it gets 405 (so clients fall back). */
export function startSseServer(): Promise<TestMcpHttpServer> {
  const sessions = new Map<string, SSEServerTransport>();
  const authorizations: Array<string | undefined> = [];
  return listen(
    async (req, res) => {
      authorizations.push(req.headers.authorization);
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (req.method === "GET" && url.pathname === "/sse") {
        const transport = new SSEServerTransport("/messages", res);
        sessions.set(transport.sessionId, transport);
        res.on("close", () => sessions.delete(transport.sessionId));
        await echoServer("sse").connect(transport);
        return;
      }
      const session = sessions.get(url.searchParams.get("sessionId") ?? "");
      if (req.method === "POST" && url.pathname === "/messages" && session) {
        await session.handlePostMessage(req, res);
        return;
      }
      res.writeHead(405).end("method not allowed");
    },
    "/sse",
    authorizations,
  );
}

/** What a host would inject as `connectPeer`: each call links a fresh client transport to `server`. */
export function inMemoryPeer(slug: string, server: () => McpServer): (agentSlug: string) => Promise<Transport> {
  return async (agentSlug) => {
    if (agentSlug !== slug) throw new Error(`no agent "${agentSlug}"`);
    const [client, serverSide] = InMemoryTransport.createLinkedPair();
    await server().connect(serverSide);
    return client;
  };
}

/** Whether a process with this pid exists (signal 0 only checks). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface StatefulMcpHttpServer extends TestMcpHttpServer {
  /** Drops every session, as a server that restarted would. */
  forgetSessions(): void;
  /** Sessions opened so far (each `initialize` makes one). */
  sessionsOpened(): number;
}

/** Streamable HTTP with sessions (`Mcp-Session-Id`); an unknown session id gets 404, as the spec says. */
export async function startStatefulServer(): Promise<StatefulMcpHttpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let opened = 0;
  const server = await listen(
    async (req, res) => {
      const id = req.headers["mcp-session-id"];
      const known = typeof id === "string" ? sessions.get(id) : undefined;
      if (typeof id === "string" && !known) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
        return;
      }
      if (known) {
        await known.handleRequest(req, res);
        return;
      }
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          opened++;
          sessions.set(sessionId, transport);
        },
      });
      await echoServer("stateful").connect(transport);
      await transport.handleRequest(req, res);
    },
    "/mcp",
    [],
  );
  return { ...server, forgetSessions: () => sessions.clear(), sessionsOpened: () => opened };
}
