/**
 * `cursorGrokBotAgents({ agents })`: talk to other deployed bots as tools
 * (`ask`, `check`, `interrupt`, `list`). Each agent with a `url` is reached
 * through its session HTTP API (`POST /v1/session`, `GET /v1/session/:id/events`,
 * `POST /v1/session/:id/stop`), authenticated with `CURSOR_API_KEY` as the bearer token.
 *
 * @example
 * export default cursorGrokBotAgents({ agents: [{ name: "vat-books", url: "https://bots.acme.dev/vat-books" }] });
 */
import { z } from "zod";
import { defineExtension } from "./extensions.ts";
import { defineTool, type ToolContext } from "./tools.ts";
import { CURSOR_API_KEY, cursorApiKey, errorResult, missingCredential } from "./cursor-api.ts";

const SERVICE = "GrokBot agents";

const agentSchema = z.union([
  z.string(),
  z.object({ name: z.string(), description: z.string().optional(), url: z.string().url().optional() }),
]);

const configSchema = z.object({ agents: z.array(agentSchema) });

export type CursorGrokBotAgentsConfig = z.input<typeof configSchema>;

interface AgentEntry {
  name: string;
  description?: string;
  url?: string;
}

async function call(agent: AgentEntry, path: string, init: { method?: string; body?: unknown; signal?: AbortSignal }): Promise<string> {
  const response = await fetch(new URL(path.replace(/^\//, ""), agent.url!.replace(/\/?$/, "/")), {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${cursorApiKey()}`, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init.signal,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${agent.name}: ${init.method ?? "GET"} ${path} failed with ${response.status}: ${text.slice(0, 300)}`);
  return text;
}

/** The last completed assistant message and whether the session is idle, from its NDJSON events. */
function summarize(ndjson: string): { status: "running" | "completed" | "error"; reply?: string; errorMessage?: string } {
  let status: "running" | "completed" | "error" = "running";
  let reply: string | undefined;
  let errorMessage: string | undefined;
  for (const line of ndjson.split("\n")) {
    if (!line.trim()) continue;
    const event = JSON.parse(line) as { type: string; data: { text?: string; message?: string } };
    if (event.type === "message.completed") reply = event.data.text;
    if (event.type === "turn.started") status = "running";
    if (event.type === "turn.completed" || event.type === "session.completed") status = "completed";
    if (event.type === "turn.failed" || event.type === "session.failed") {
      status = "error";
      errorMessage = event.data.message;
    }
  }
  return { status, reply, errorMessage };
}

export const cursorGrokBotAgents = defineExtension({
  name: "cursor-grokbot-agents",
  description: "Ask other deployed bots for help and follow their answers.",
  configSchema,
  tools: (config) => {
    const agents: AgentEntry[] = config.agents.map((agent) => (typeof agent === "string" ? { name: agent } : agent));
    const names = agents.map((agent) => agent.name);

    async function withAgent(name: string, body: (agent: AgentEntry) => Promise<unknown>): Promise<unknown> {
      if (!cursorApiKey()) return missingCredential(CURSOR_API_KEY, SERVICE);
      const agent = agents.find((candidate) => candidate.name === name);
      if (!agent) return errorResult(`Unknown agent "${name}". Known agents: ${names.join(", ") || "none"}.`);
      if (!agent.url) return errorResult(`Agent "${name}" has no url configured.`);
      try {
        return await body(agent);
      } catch (error) {
        return errorResult((error as Error).message);
      }
    }

    const tokenKey = (agent: string, sessionId: string) => `grokbot:${agent}:${sessionId}`;

    async function ask(agent: AgentEntry, message: string, sessionId: string | undefined, ctx: ToolContext) {
      if (!sessionId) {
        const started = JSON.parse(await call(agent, "/v1/session", { method: "POST", body: { message }, signal: ctx.abortSignal }));
        await ctx.host.kv.put(tokenKey(agent.name, started.sessionId), started.continuationToken);
        return { status: "running", sessionId: started.sessionId };
      }
      const continuationToken = await ctx.host.kv.get(tokenKey(agent.name, sessionId));
      if (typeof continuationToken !== "string") throw new Error(`No conversation ${sessionId} with ${agent.name} was started here.`);
      const followed = JSON.parse(
        await call(agent, `/v1/session/${sessionId}`, { method: "POST", body: { message, continuationToken }, signal: ctx.abortSignal }),
      );
      await ctx.host.kv.put(tokenKey(agent.name, sessionId), followed.continuationToken);
      return { status: "running", sessionId };
    }

    const agentName = z.string().describe(`One of: ${names.join(", ")}`);
    return {
      list: defineTool({
        description: "List the agents you can ask.",
        effect: "read",
        inputSchema: z.object({}),
        execute: () => ({ agents: agents.map(({ name, description }) => ({ name, description })) }),
      }),
      ask: defineTool({
        description: "Ask an agent (starts a conversation, or continues one with sessionId). Follow up with check.",
        effect: "write",
        inputSchema: z.object({ agent: agentName, message: z.string(), sessionId: z.string().optional() }),
        execute: ({ agent, message, sessionId }, ctx) => withAgent(agent, (entry) => ask(entry, message, sessionId, ctx)),
      }),
      check: defineTool({
        description: "Status and reply so far of a conversation started with ask.",
        effect: "read",
        inputSchema: z.object({ agent: agentName, sessionId: z.string() }),
        execute: ({ agent, sessionId }, ctx) =>
          withAgent(agent, async (entry) => ({
            sessionId,
            ...summarize(await call(entry, `/v1/session/${sessionId}/events`, { signal: ctx.abortSignal })),
          })),
      }),
      interrupt: defineTool({
        description: "Stop the agent's running turn in that conversation.",
        effect: "write",
        inputSchema: z.object({ agent: agentName, sessionId: z.string() }),
        execute: ({ agent, sessionId }, ctx) =>
          withAgent(agent, async (entry) => JSON.parse(await call(entry, `/v1/session/${sessionId}/stop`, { method: "POST", signal: ctx.abortSignal }))),
      }),
    };
  },
});
