import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AskResult } from "../server/mcp/agent-mcp-server.ts";
import { KIT_DIR, type RunningServer, startServer } from "./support/bdk-server.ts";

const TOKEN = "mcp-secret";
/** Present on every request: the caller looks remote, so loopback (localDevStrict) cannot admit it, only the token. */
const REMOTE = { "x-forwarded-for": "198.51.100.4" };

let server: RunningServer;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startServer({ dir: path.join(KIT_DIR, "bot-examples", "pr-approver"), args: ["--bearer-token", TOKEN] });
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server?.stop();
});

async function connect(route: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "mcp-server-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}${route}`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const withToken = { ...REMOTE, authorization: `Bearer ${TOKEN}` };

function textOf(result: CallToolResult): string {
  return result.content.map((item) => (item.type === "text" ? item.text : "")).join("");
}

describe("POST /v1/mcp", () => {
  it("answers 401 without the bearer token, and the MCP client cannot connect", async () => {
    const response = await fetch(`${server.url}/v1/mcp`, {
      method: "POST",
      headers: { ...REMOTE, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("Bearer");

    const refused = await connect("/v1/mcp", REMOTE).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).toBe(401);
  });

  it("with the token: ask answers, a follow-up continues the session, check reports it", async () => {
    const client = await connect("/v1/mcp", withToken);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["ask", "call_tool", "check"]);

    const first = (await client.callTool({ name: "ask", arguments: { message: "hello" } })) as CallToolResult;
    const answer = first.structuredContent as unknown as AskResult;
    expect(answer.status).toBe("completed");
    expect(answer.reply).toContain("inspect_pr");

    const prUrl = "https://github.com/acme/checkout/pull/42";
    const second = (await client.callTool({
      name: "ask",
      arguments: { message: `inspect_pr ${prUrl}`, sessionId: answer.sessionId },
    })) as CallToolResult;
    expect(second.structuredContent).toMatchObject({ status: "completed", sessionId: answer.sessionId });
    expect((second.structuredContent as unknown as AskResult).reply).toContain("Fix typo in README");

    const checked = (await client.callTool({ name: "check", arguments: { sessionId: answer.sessionId } })) as CallToolResult;
    expect(checked.structuredContent).toEqual(second.structuredContent);

    // The session is the token's, like any HTTP session: the same token reads it over the JSON API.
    const session = await fetch(`${server.url}/v1/session/${answer.sessionId}`, { headers: withToken });
    expect(await session.json()).toMatchObject({ ok: true, session: { channel: "mcp", status: "waiting" } });
  });

  it("answers GET with 405 (stateless: no server-initiated stream)", async () => {
    const response = await fetch(`${server.url}/v1/mcp`, { headers: { ...withToken, accept: "text/event-stream" } });
    expect(response.status).toBe(405);
  });
});

describe("POST /v1/mcp/tools", () => {
  it("lists the server tools and calls one by name", async () => {
    const client = await connect("/v1/mcp/tools", withToken);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["inspect_pr", "submit_review"]);
    expect(tools.find((tool) => tool.name === "inspect_pr")!.inputSchema).toMatchObject({ required: ["prUrl"] });

    const result = (await client.callTool({
      name: "inspect_pr",
      arguments: { prUrl: "https://github.com/acme/checkout/pull/42" },
    })) as CallToolResult;
    expect(result.isError).toBe(false);
    expect(JSON.parse(textOf(result))).toMatchObject({ title: "Fix typo in README", draft: false });

    const unknownPr = (await client.callTool({
      name: "inspect_pr",
      arguments: { prUrl: "https://github.com/acme/checkout/pull/999" },
    })) as CallToolResult;
    expect(unknownPr.isError).toBe(true);
    expect(textOf(unknownPr)).toContain("No PR fixture");
  });
});
