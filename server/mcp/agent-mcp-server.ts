/**
 * Our MCP server (spec/mcp-extensions.md, "Our MCP server"): the agent as
 * MCP tools. The full server chats (`ask`, `check`) and runs server tools
 * (`call_tool`); the tools-only server exposes each deterministic server tool
 * as its own MCP tool. One server serves one caller (`principal`).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { isContentEnvelope } from "../harness/execute-tool.ts";
import type { OpenedAgent } from "../host/open-agent.ts";
import type { LoadedTool } from "../load/types.ts";
import { BdkError } from "../protocol/errors.ts";
import type { Principal } from "../protocol/events.ts";
import { authoredTools } from "../sessions/turn-setup.ts";
import { askStatus, type AskResult } from "./ask-status.ts";

export type { AskResult } from "./ask-status.ts";

export interface AgentMcpServerOptions {
  /** Only the deterministic server tools, one MCP tool each (`/v1/mcp/tools`). */
  toolsOnly?: boolean;
}

export const DEFAULT_WAIT_SECONDS = 30;
/** Longer waits would outlast common HTTP timeouts; a client calls `check` instead. */
export const MAX_WAIT_SECONDS = 300;

const askResultShape = {
  status: z.enum(["running", "completed", "error"]),
  sessionId: z.string(),
  reply: z.string().optional(),
  errorMessage: z.string().optional(),
};

export function createAgentMcpServer(
  opened: OpenedAgent,
  principal: Principal,
  options: AgentMcpServerOptions = {},
): McpServer {
  const agent = opened.runtime.agent;
  const server = new McpServer(
    { name: agent.name, version: agent.version },
    agent.config.description ? { instructions: agent.config.description } : undefined,
  );
  if (options.toolsOnly) exposeServerTools(server, opened, principal);
  else registerAgentTools(server, opened, principal);
  return server;
}

function registerAgentTools(server: McpServer, opened: OpenedAgent, principal: Principal): void {
  const name = opened.runtime.agent.name;
  server.registerTool(
    "ask",
    {
      description:
        `Send a message to ${name}. Without sessionId a new conversation starts; with the sessionId of an earlier answer ` +
        `the conversation continues (interrupting a reply still running). Waits up to waitSeconds for the reply; ` +
        `status "running" means call check later with the sessionId.`,
      inputSchema: {
        message: z.string().min(1).describe("The message for the agent."),
        sessionId: z.string().min(1).optional().describe("Continue this conversation (from an earlier ask)."),
        waitSeconds: z
          .number()
          .min(0)
          .optional()
          .describe(`How long to wait for the reply (default ${DEFAULT_WAIT_SECONDS}, at most ${MAX_WAIT_SECONDS}; 0 returns at once).`),
      },
      outputSchema: askResultShape,
    },
    (args, extra) =>
      attempt(opened, "ask", async () => {
        const handle = await (args.sessionId
          ? opened.runtime.followUp(args.sessionId, { message: args.message, principal, admission: "preempt" })
          : opened.runtime.startSession({ message: args.message, principal, channel: "mcp" }));
        const seconds = Math.min(args.waitSeconds ?? DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS);
        if (seconds > 0) await settledWithin(handle.done, seconds * 1000, extra.signal);
        return askResult(await askStatus(opened, principal, handle.sessionId, handle.turnId));
      }),
  );

  server.registerTool(
    "check",
    {
      description: `Where the latest reply of a ${name} conversation stands: status, and the reply so far.`,
      inputSchema: { sessionId: z.string().min(1).describe("The sessionId an ask returned.") },
      outputSchema: askResultShape,
    },
    (args) => attempt(opened, "check", async () => askResult(await askStatus(opened, principal, args.sessionId))),
  );

  const tools = serverTools(opened);
  const listing = tools.map((tool) => `- ${tool.name}: ${firstLine(tool.description)}`).join("\n");
  server.registerTool(
    "call_tool",
    {
      description:
        `Run one of ${name}'s server tools directly, without a conversation.\n` +
        (listing ? `Tools:\n${listing}` : "This agent has no server tools."),
      inputSchema: {
        name: z.string().min(1).describe("The tool name."),
        input: z.record(z.string(), z.unknown()).optional().describe("The tool's input object."),
      },
    },
    (args) => attempt(opened, "call_tool", () => runServerTool(opened, principal, args.name, args.input ?? {})),
  );
}

/**
 * The low-level handlers instead of `registerTool`: each tool already has a
 * JSON Schema and validates its own input, and `registerTool` wants zod.
 */
function exposeServerTools(server: McpServer, opened: OpenedAgent, principal: Principal): void {
  server.server.registerCapabilities({ tools: {} });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: serverTools(opened).map(
      (tool): Tool => ({
        name: tool.name,
        description: tool.description,
        inputSchema: { type: "object", ...tool.inputJsonSchema } as Tool["inputSchema"],
      }),
    ),
  }));
  server.server.setRequestHandler(CallToolRequestSchema, (request) =>
    attempt(opened, request.params.name, () =>
      runServerTool(opened, principal, request.params.name, request.params.arguments ?? {}),
    ),
  );
}

/** The agent's authored tools that run on the server (not `execution: "agent"` ones, which need a workspace). */
function serverTools(opened: OpenedAgent): LoadedTool[] {
  return authoredTools(opened.runtime.agent).filter((tool) => tool.execution === "server");
}

async function runServerTool(opened: OpenedAgent, principal: Principal, name: string, input: unknown): Promise<CallToolResult> {
  const tools = serverTools(opened);
  if (!tools.some((tool) => tool.name === name)) {
    const known = tools.map((tool) => tool.name).join(", ") || "none";
    throw new BdkError("not_found", `No server tool named "${name}". This agent's server tools: ${known}.`);
  }
  // The same call as POST /v1/tools/:name: input validation, dry-run rules, no approval gate.
  const outcome = await opened.runtime.tools.callTool(name, input, { principal });
  const output = outcome.output;
  // A tool may return MCP-style `{ content: [...] }` itself; it passes through as the result.
  if (isContentEnvelope(output)) return { content: output.content, isError: outcome.isError };
  const text = typeof output === "string" ? output : JSON.stringify(output);
  const structured = !outcome.isError && isPlainObject(output) ? { structuredContent: output } : {};
  return { content: [{ type: "text", text }], isError: outcome.isError, ...structured };
}

function askResult(result: AskResult): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(result) }],
    structuredContent: { ...result },
    // A failed turn is a failed call to the client, with the reason in errorMessage.
    isError: result.status === "error",
  };
}

/**
 * Runs a tool body; a `BdkError` becomes an error result with its message,
 * anything else a generic one (the stack goes to the agent's log, never to the client).
 */
async function attempt(opened: OpenedAgent, tool: string, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    if (BdkError.isInstance(error)) return errorResult(error.message);
    opened.logger.error("Unhandled error in an MCP tool", {
      tool,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return errorResult(`${tool} failed with an internal error; the agent's log has the details.`);
  }
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** Resolves when `promise` settles, `ms` pass, or `signal` aborts (the client gave up), whichever comes first. */
function settledWithin(promise: Promise<unknown>, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", finish);
      resolve();
    };
    const timer = setTimeout(finish, ms);
    signal.addEventListener("abort", finish, { once: true });
    promise.then(finish, finish);
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}
