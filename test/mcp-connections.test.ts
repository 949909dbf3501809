/** `McpConnections` against real servers: streamable HTTP, SSE, an in-memory peer and a stdio child. */
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ConnectionDefinition } from "../server/authoring/connections.ts";
import { createLogger } from "../server/host/logger.ts";
import { connectionKind } from "../server/load/connections.ts";
import { KIT_ROOT } from "../server/load/testing/temp-project.ts";
import type { ResolvedConnection } from "../server/load/types.ts";
import { DEFAULT_RETRY_AFTER_MS, McpConnections } from "../server/mcp/connections.ts";
import {
  echoServer,
  inMemoryPeer,
  processAlive,
  startSseServer,
  startStatefulServer,
  startStreamableServer,
  type TestMcpHttpServer,
} from "./support/mcp-servers.ts";
import { testAgent } from "./support/tools.ts";

const PROJECT = path.join(KIT_ROOT, "test/fixtures/mcp-agent");
const open: McpConnections[] = [];
let remote: TestMcpHttpServer;
let sse: TestMcpHttpServer;

beforeAll(async () => {
  remote = await startStreamableServer("Bearer s3cret");
  sse = await startSseServer();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((connections) => connections.close()));
});
afterAll(async () => {
  await Promise.all([remote.close(), sse.close()]);
});

function resolved(definitions: Record<string, ConnectionDefinition>): Map<string, ResolvedConnection> {
  const map = new Map<string, ResolvedConnection>();
  for (const [name, definition] of Object.entries(definitions)) {
    map.set(name, { name, scope: "model", kind: connectionKind(definition), definition, file: `bot/mcp-connections/${name}.ts` });
  }
  return map;
}

function connections(
  definitions: Record<string, ConnectionDefinition>,
  options: Partial<ConstructorParameters<typeof McpConnections>[0]> = {},
): McpConnections {
  const agent = testAgent([], { rootDir: PROJECT, connections: resolved(definitions) });
  const created = new McpConnections({ agent: () => agent, env: {}, logger: createLogger(undefined), ...options });
  open.push(created);
  return created;
}

const text = (result: { content: Array<{ text?: string }> }) => result.content.map((part) => part.text).join("\n");

describe("remote connections", () => {
  it("resolves ${NAME} in headers when the client opens, and retries a failed start only after the delay", async () => {
    const env: Record<string, string | undefined> = {};
    let now = 1_000_000;
    const mcp = connections({ linear: { url: remote.url, headers: { Authorization: "Bearer ${MCP_TOKEN}" } } }, { env, now: () => now });
    const before = remote.authorizations.length;

    const unset = await mcp.callTool("linear", "say", { text: "hi" });
    expect(unset.isError).toBe(true);
    expect(text(unset)).toBe('MCP connection "linear" is unavailable: ${MCP_TOKEN} (used in Authorization) is not set in the environment');
    expect(mcp.status()).toEqual([{ name: "linear", status: "error", error: "${MCP_TOKEN} (used in Authorization) is not set in the environment" }]);

    // The secret arrives later; the connection is not retried in a hot loop, but after the delay.
    env.MCP_TOKEN = "s3cret";
    expect(text(await mcp.callTool("linear", "say", { text: "hi" }))).toMatch(/is not set in the environment \(retried 30 s from now\)$/);
    expect(remote.authorizations.length).toBe(before);
    now += DEFAULT_RETRY_AFTER_MS;
    expect(await mcp.callTool("linear", "say", { text: "hi" })).toEqual({ content: [{ type: "text", text: "remote: hi" }] });
    expect(remote.authorizations.slice(before).every((header) => header === "Bearer s3cret")).toBe(true);
    expect(mcp.status()).toEqual([{ name: "linear", status: "connected", tools: ["say", "whoami"] }]);
  });

  it("offers the tools to the model as <connection>__<tool>, validating input against the tool's schema", async () => {
    const mcp = connections({ linear: { url: remote.url, headers: { Authorization: "Bearer s3cret" } } });
    const tools = await mcp.modelTools();
    expect(tools.map((tool) => [tool.name, tool.source])).toEqual([
      ["linear__say", "connection"],
      ["linear__whoami", "connection"],
    ]);
    const say = tools[0];
    expect(say.parseInput({ text: "ok" })).toEqual({ ok: true, value: { text: "ok" } });
    // Checked by the kit's one JSON Schema module: the message names the field as for authored tools.
    expect(say.parseInput({})).toEqual({ ok: false, message: "text: is required" });
    expect(say.parseInput("text")).toEqual({ ok: false, message: "the input must be a JSON object" });
  });

  it("reopens after a remote server restarts and forgets the session: one failed call, then it works", async () => {
    const stateful = await startStatefulServer();
    try {
      const mcp = connections({ books: { url: stateful.url } });
      expect(text(await mcp.callTool("books", "say", { text: "one" }))).toContain("one");
      stateful.forgetSessions();
      const lost = await mcp.callTool("books", "say", { text: "two" });
      expect(lost.isError).toBe(true);
      expect(text(lost)).toContain('MCP connection "books", tool "say"');
      const again = await mcp.callTool("books", "say", { text: "three" });
      expect(again.isError).toBeFalsy();
      expect(text(again)).toContain("three");
      expect(stateful.sessionsOpened()).toBe(2);
    } finally {
      await stateful.close();
    }
  });

  it("does not fall back to SSE when the server refuses the credentials", async () => {
    const mcp = connections({ linear: { url: remote.url, headers: { Authorization: "Bearer wrong" } } });
    const result = await mcp.callTool("linear", "say", { text: "hi" });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^MCP connection "linear" is unavailable: .*401/);
    expect(text(result)).not.toMatch(/SSE/);
    expect(await mcp.modelTools()).toEqual([]);
  });

  it("falls back to SSE when the server does not speak streamable HTTP", async () => {
    const mcp = connections({ legacy: { url: sse.url, headers: { Authorization: "Bearer sse-token" } } });
    expect(text(await mcp.callTool("legacy", "say", { text: "hi" }))).toBe("sse: hi");
    expect(sse.authorizations.at(-1)).toBe("Bearer sse-token");
  });
});

describe("peer connections", () => {
  it("reach another agent through the injected transport, once, reused across calls", async () => {
    let links = 0;
    const link = inMemoryPeer("vat-books", () => echoServer("vat-books"));
    const mcp = connections(
      { books: { agent: "vat-books" } },
      {
        connectPeer: (slug) => {
          links++;
          return link(slug);
        },
      },
    );
    expect(text(await mcp.callTool("books", "whoami"))).toBe("vat-books");
    expect(text(await mcp.callTool("books", "say", { text: "again" }))).toBe("vat-books: again");
    expect(links).toBe(1);
  });

  it("fail with a clear message when the peer is not mounted", async () => {
    const withoutHost = connections({ books: { agent: "vat-books" } });
    expect(text(await withoutHost.callTool("books", "whoami"))).toBe(
      'MCP connection "books" is unavailable: peer agent "vat-books" is not mounted on this host',
    );
    const otherPeer = connections({ books: { agent: "vat-books" } }, { connectPeer: inMemoryPeer("other", () => echoServer("other")) });
    expect(text(await otherPeer.callTool("books", "whoami"))).toBe(
      'MCP connection "books" is unavailable: peer agent "vat-books" is not mounted on this host (no agent "vat-books")',
    );
  });
});

describe("stdio connections", () => {
  it("reuse one child, and reopen after it dies", async () => {
    const mcp = connections({ echo: { command: "node", args: ["mcp-servers/echo-server.mjs"] } });
    const pid = Number(text(await mcp.callTool("echo", "pid")));
    expect(Number(text(await mcp.callTool("echo", "pid")))).toBe(pid);
    process.kill(pid, "SIGKILL");
    while (mcp.status()[0].status === "connected") await new Promise((resolve) => setImmediate(resolve));
    expect(mcp.status()).toEqual([{ name: "echo", status: "idle" }]);
    const next = Number(text(await mcp.callTool("echo", "pid")));
    expect(next).not.toBe(pid);
  });

  it("quote the end of the child's stderr when it fails to start", async () => {
    const mcp = connections({ crash: { command: "node", args: ["-e", "console.error('missing API key'); process.exit(3)"] } });
    const result = await mcp.callTool("crash", "anything");
    expect(text(result)).toMatch(/^MCP connection "crash" is unavailable: could not start "node -e .*": .*its stderr ended with: missing API key$/);
  });

  it("replace the client when a reload changes the definition, and close it when the connection is removed", async () => {
    const definition = (greeting: string): ConnectionDefinition => ({
      command: "node",
      args: ["mcp-servers/echo-server.mjs"],
      env: { ECHO_GREETING: greeting },
    });
    let agent = testAgent([], { rootDir: PROJECT, connections: resolved({ echo: definition("first") }) });
    const mcp = new McpConnections({ agent: () => agent, env: {}, logger: createLogger(undefined) });
    open.push(mcp);
    const firstPid = Number(text(await mcp.callTool("echo", "pid")));
    expect(text(await mcp.callTool("echo", "env", { name: "ECHO_GREETING" }))).toBe("first");

    agent = testAgent([], { rootDir: PROJECT, connections: resolved({ echo: definition("second") }) });
    expect(text(await mcp.callTool("echo", "env", { name: "ECHO_GREETING" }))).toBe("second");
    const secondPid = Number(text(await mcp.callTool("echo", "pid")));
    expect(secondPid).not.toBe(firstPid);

    agent = testAgent([], { rootDir: PROJECT, connections: resolved({}) });
    expect(mcp.names()).toEqual([]);
    await expect(mcp.callTool("echo", "pid")).rejects.toMatchObject({ code: "not_found", message: 'No MCP connection named "echo". Known: none.' });
    await mcp.close();
    expect([firstPid, secondPid].some(processAlive)).toBe(false);
  });

  it("refuse new calls once closed", async () => {
    const mcp = connections({ echo: { command: "node", args: ["mcp-servers/echo-server.mjs"] } });
    await mcp.close();
    expect(text(await mcp.callTool("echo", "say", { text: "late" }))).toBe(
      'MCP connection "echo" is unavailable: the agent is shutting down',
    );
  });
});
