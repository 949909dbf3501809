import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAgent, type OpenedAgent } from "../host/open-agent.ts";
import type { Principal } from "../protocol/events.ts";
import { type AskResult, createAgentMcpServer } from "./agent-mcp-server.ts";

const KIT_NODE_MODULES = path.resolve(import.meta.dirname, "../../node_modules");

/** A project with three server tools and one agent tool (which the MCP server must not expose). */
const FILES: Record<string, string> = {
  "package.json": `{ "name": "mcp-fixture", "private": true, "type": "module" }`,
  "bot/instructions.md": "You help people try BDK over MCP.\n",
  "bot/tools/greet.ts": `import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
export default defineTool({
  description: "Greet someone by name.",
  inputSchema: z.object({ name: z.string() }),
  async execute({ name }) { return { greeting: "Hello, " + name + "!" }; },
});
`,
  "bot/tools/explode.ts": `import { defineTool } from "@cursor/bdk/tools";
export default defineTool({ description: "Always fails.", async execute() { throw new Error("the fuse was lit"); } });
`,
  "bot/tools/card.ts": `import { defineTool } from "@cursor/bdk/tools";
export default defineTool({ description: "Answers MCP-style content.", async execute() { return { content: [{ type: "text", text: "a card" }] }; } });
`,
  "bot/tools/workspace_note.ts": `import { defineTool } from "@cursor/bdk/tools";
export default defineTool({ description: "Runs in the workspace.", execution: "agent", async execute() { return "noted"; } });
`,
};

const alice: Principal = { type: "user", id: "alice" };
const bob: Principal = { type: "user", id: "bob" };

let dir: string;
let opened: OpenedAgent;
const clients: Client[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "bdk-mcp-server-"));
  const project = path.join(dir, "project");
  for (const [file, contents] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
    writeFileSync(path.join(project, file), contents);
  }
  symlinkSync(KIT_NODE_MODULES, path.join(project, "node_modules"));
  opened = await openAgent(project, { stateRoot: path.join(dir, "state"), env: { BDK_MODEL: "scripted" } });
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await opened?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function connect(principal: Principal, options?: { toolsOnly?: boolean }, agent = opened): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createAgentMcpServer(agent, principal, options).connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  return result.content.map((item) => (item.type === "text" ? item.text : "")).join("");
}

async function ask(client: Client, args: Record<string, unknown>): Promise<AskResult> {
  const result = await call(client, "ask", args);
  return result.structuredContent as unknown as AskResult;
}

describe("the full MCP server", () => {
  it("lists ask, check and call_tool with their input schemas", async () => {
    const client = await connect(alice);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["ask", "call_tool", "check"]);
    const askTool = tools.find((tool) => tool.name === "ask")!;
    expect(askTool.inputSchema.required).toEqual(["message"]);
    expect(Object.keys(askTool.inputSchema.properties ?? {}).sort()).toEqual(["message", "sessionId", "waitSeconds"]);
    expect(tools.find((tool) => tool.name === "call_tool")!.description).toContain("greet");
  });

  it("ask starts a session and returns the completed reply; the text content carries the same JSON", async () => {
    const client = await connect(alice);
    const result = await call(client, "ask", { message: "hello" });
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as unknown as AskResult;
    expect(answer).toMatchObject({ status: "completed" });
    expect(answer.reply).toContain("scripted model");
    expect(JSON.parse(textOf(result))).toEqual(answer);
    const session = await opened.runtime.getSession(answer.sessionId, alice);
    expect(session).toMatchObject({ channel: "mcp", mode: "chat" });
  });

  it("ask with a sessionId continues the same conversation, without a continuation token", async () => {
    const client = await connect(alice);
    const first = await ask(client, { message: "hello" });
    const second = await ask(client, { message: 'greet {"name": "Ada"}', sessionId: first.sessionId });
    expect(second).toMatchObject({ status: "completed", sessionId: first.sessionId });
    expect(second.reply).toContain("Hello, Ada!");
    const messages = (await opened.runtime
      .reader.events(first.sessionId, alice))
      .filter((event) => event.type === "message.received")
      .map((event) => event.data.message);
    expect(messages).toEqual(["hello", 'greet {"name": "Ada"}']);
  });

  it("check reports the latest reply of a session", async () => {
    const client = await connect(alice);
    const asked = await ask(client, { message: "hello" });
    const checked = await call(client, "check", { sessionId: asked.sessionId });
    expect(checked.structuredContent).toEqual(asked);
  });

  it("ask with waitSeconds 0 answers running at once; check answers completed once the turn ends", async () => {
    const client = await connect(alice);
    const started = await ask(client, { message: "hello", waitSeconds: 0 });
    expect(started.status).toBe("running");
    await opened.runtime.idle(started.sessionId);
    const checked = (await call(client, "check", { sessionId: started.sessionId })).structuredContent as unknown as AskResult;
    expect(checked).toMatchObject({ status: "completed", sessionId: started.sessionId });
    expect(checked.reply).toContain("scripted model");
  });

  it("answers error with the reason when the turn fails", async () => {
    // No BDK_MODEL and no credential: the default model cannot run, so the turn fails.
    const unconfigured = await openAgent(path.join(dir, "project"), { stateRoot: path.join(dir, "state-unconfigured"), env: {} });
    try {
      const result = await call(await connect(alice, {}, unconfigured), "ask", { message: "hello" });
      expect(result.isError).toBe(true);
      const answer = result.structuredContent as unknown as AskResult;
      expect(answer.status).toBe("error");
      expect(answer.errorMessage).toContain("XAI_API_KEY");
    } finally {
      await unconfigured.close();
    }
  });

  it("refuses another principal's session for ask and check, naming the reason", async () => {
    const asked = await ask(await connect(alice), { message: "hello" });
    const intruder = await connect(bob);
    for (const [tool, args] of [
      ["ask", { message: "let me in", sessionId: asked.sessionId }],
      ["check", { sessionId: asked.sessionId }],
    ] as const) {
      const result = await call(intruder, tool, args);
      expect(result.isError, tool).toBe(true);
      expect(textOf(result)).toContain("belongs to another principal");
    }
    const unknown = await call(intruder, "check", { sessionId: "ses_nope" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain("No session ses_nope");
    // Bob's attempt left Alice's conversation untouched.
    const received = (await opened.runtime.reader.events(asked.sessionId, alice)).filter((event) => event.type === "message.received");
    expect(received).toHaveLength(1);
  });

  it("call_tool runs a server tool; an unknown name, an agent tool or a failing tool is an error result", async () => {
    const client = await connect(alice);
    const ok = await call(client, "call_tool", { name: "greet", input: { name: "Grace" } });
    expect(ok.isError).toBeFalsy();
    expect(JSON.parse(textOf(ok))).toEqual({ greeting: "Hello, Grace!" });

    const unknown = await call(client, "call_tool", { name: "teleport", input: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('No server tool named "teleport"');

    const agentTool = await call(client, "call_tool", { name: "workspace_note", input: {} });
    expect(agentTool.isError).toBe(true);
    expect(textOf(agentTool)).toContain('No server tool named "workspace_note"');

    const failing = await call(client, "call_tool", { name: "explode" });
    expect(failing).toMatchObject({ isError: true });
    expect(textOf(failing)).toBe("the fuse was lit");

    const invalid = await call(client, "call_tool", { name: "greet", input: { name: 42 } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain("name");
  });
});

describe("the tools-only MCP server", () => {
  it("lists only the server tools, with their JSON schemas and descriptions", async () => {
    const client = await connect(alice, { toolsOnly: true });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["card", "explode", "greet"]);
    const greet = tools.find((tool) => tool.name === "greet")!;
    expect(greet.description).toBe("Greet someone by name.");
    expect(greet.inputSchema).toMatchObject({ type: "object", properties: { name: { type: "string" } }, required: ["name"] });
  });

  it("calls a tool by its own name; failures and unknown names are error results", async () => {
    const client = await connect(alice, { toolsOnly: true });
    const ok = await call(client, "greet", { name: "Linus" });
    expect(ok.isError).toBe(false);
    expect(JSON.parse(textOf(ok))).toEqual({ greeting: "Hello, Linus!" });

    const card = await call(client, "card", {});
    expect(card).toMatchObject({ isError: false, content: [{ type: "text", text: "a card" }] });

    const failing = await call(client, "explode", {});
    expect(failing.isError).toBe(true);
    expect(textOf(failing)).toBe("the fuse was lit");

    const unknown = await call(client, "ask", { message: "hello" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('No server tool named "ask"');
  });
});
