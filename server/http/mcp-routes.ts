import type { AgentMcpServerOptions } from "../mcp/agent-mcp-server.ts";
import type { AgentRequest, AgentRouteHandler } from "./agent-routes.ts";
import { DEFAULT_BODY_LIMIT } from "./body.ts";

/**
 * `/v1/mcp` and `/v1/mcp/tools`: streamable HTTP in stateless mode, so any
 * process can answer any request (sessions live in the store, not in the
 * transport). Auth and the principal come from `HttpHost.handleAgentRoute`.
 */
async function serveMcp({ request, opened, principal }: AgentRequest, options: AgentMcpServerOptions): Promise<Response> {
  // Loaded on the first MCP request: a server nobody asks over MCP does without the SDK's server half.
  const [{ WebStandardStreamableHTTPServerTransport }, { createAgentMcpServer }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("../mcp/agent-mcp-server.ts"),
  ]);
  const server = createAgentMcpServer(opened, principal, options);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: DEFAULT_BODY_LIMIT,
  });
  await server.connect(transport);
  // A client that hangs up ends a waiting `ask`: closing aborts the handlers' signals. A closed
  // transport never answers, so the hang-up also settles the race (nobody reads that response).
  const hungUp = new Promise<Response>((resolve) => {
    request.signal.addEventListener(
      "abort",
      () => {
        void server.close();
        resolve(new Response(null, { status: 499 }));
      },
      { once: true },
    );
  });
  try {
    // JSON responses: the answer is complete when this resolves, so the server can close right after.
    return await Promise.race([transport.handleRequest(request), hungUp]);
  } finally {
    await server.close();
  }
}

/** Stateless mode has no server-initiated stream (GET) and no session to end (DELETE). */
async function methodNotAllowed(): Promise<Response> {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null }), {
    status: 405,
    headers: { allow: "POST", "content-type": "application/json" },
  });
}

export const mcpRoutes = {
  mcp: (req) => serveMcp(req, {}),
  mcpTools: (req) => serveMcp(req, { toolsOnly: true }),
  mcpMethodNotAllowed: methodNotAllowed,
} satisfies Record<string, AgentRouteHandler>;
