/**
 * `cursorGrokBotAgents({ agents })`: talk to other deployed bots as tools
 * (`ask`, `check`, `interrupt`, `list`). Each bot is reached through its
 * session HTTP API (`POST /v1/session`, `GET /v1/session/:id/stream`,
 * `POST /v1/session/:id/stop`) at its `url`, or, for a bot given by name
 * alone, at `$GROKBOT_AGENTS_URL/<name>` (a `bdk serve` of several agents);
 * `CURSOR_API_KEY` is the bearer token.
 *
 * @example
 * import cursorGrokBotAgents from "@cursor/bdk/extensions/cursor-grokbot-agents";
 * export default cursorGrokBotAgents({ agents: [{ name: process.env.VAT_BOT ?? "vat-books", description: "VAT questions" }] });
 */
import { z } from "zod";
import { defineExtension } from "./extensions.ts";
import { defineTool, type ToolContext } from "./tools.ts";
import { asToolResult, cursorApiKey, modelSettingSchema } from "./cursor-api.ts";
import type { JsonValue } from "./types.ts";

const SERVICE = "GrokBot agents";
/** The base URL of bots configured by name alone. */
export const GROKBOT_AGENTS_URL = "GROKBOT_AGENTS_URL";
const MAX_WAIT_SECONDS = 300;

const agentSchema = z.union([
  z.string(),
  z.object({ name: z.string(), description: z.string().optional(), url: z.string().url().optional() }),
]);

const configSchema = z.object({
  agents: z.array(agentSchema),
  /** Accepted as published projects pass it; each bot answers with its own model. */
  model: modelSettingSchema.optional(),
});

export type CursorGrokBotAgentsConfig = z.input<typeof configSchema>;

interface AgentEntry {
  name: string;
  description?: string;
  url?: string;
}

/** A conversation started here: what a follow-up, `check` and `interrupt` need. */
interface Conversation {
  agent: string;
  sessionId: string;
  continuationToken: string;
  /** The turn the last `ask` started; `check` reports on it. */
  turnId?: string;
}

type Status = "running" | "completed" | "error";

interface RemoteEvent {
  type: string;
  turnId?: string;
  data: { text?: string; result?: string; message?: string; finishReason?: string };
}

function baseUrlOf(agent: AgentEntry): string | undefined {
  if (agent.url) return agent.url;
  const base = process.env[GROKBOT_AGENTS_URL];
  return base ? `${base.replace(/\/+$/, "")}/${encodeURIComponent(agent.name)}` : undefined;
}

async function request(agent: AgentEntry, path: string, init: { method?: string; body?: unknown; signal?: AbortSignal }): Promise<Response> {
  // findAgent only hands out agents that have a base URL.
  const response = await fetch(new URL(path.replace(/^\//, ""), baseUrlOf(agent)!.replace(/\/?$/, "/")), {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${cursorApiKey()}`, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init.signal,
  });
  if (!response.ok) {
    const text = await response.text();
    throw new Error(`${agent.name}: ${init.method ?? "GET"} ${path} failed with ${response.status}: ${text.slice(0, 300)}`);
  }
  return response;
}

async function requestJson(agent: AgentEntry, path: string, init: { method?: string; body?: unknown; signal?: AbortSignal }) {
  return (await (await request(agent, path, init)).json()) as Record<string, unknown>;
}

function parseLines(text: string, into: RemoteEvent[]): void {
  for (const line of text.split("\n")) if (line.trim()) into.push(JSON.parse(line) as RemoteEvent);
}

function turnEnded(event: RemoteEvent, turnId: string | undefined): boolean {
  return (event.type === "turn.completed" || event.type === "turn.failed") && (turnId === undefined || event.turnId === turnId);
}

/**
 * The session's events: a dump, or, with `waitMs`, followed live until the
 * turn ends or the wait is over (whichever comes first).
 */
async function sessionEvents(agent: AgentEntry, conversation: Conversation, waitMs: number, signal: AbortSignal): Promise<RemoteEvent[]> {
  const events: RemoteEvent[] = [];
  const path = `/v1/session/${encodeURIComponent(conversation.sessionId)}`;
  if (waitMs <= 0) {
    parseLines(await (await request(agent, `${path}/events`, { signal })).text(), events);
    return events;
  }
  const waited = AbortSignal.any([signal, AbortSignal.timeout(waitMs)]);
  const response = await request(agent, `${path}/stream?startIndex=0`, { signal: waited });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const newline = buffer.lastIndexOf("\n");
      if (newline === -1) continue;
      parseLines(buffer.slice(0, newline), events);
      buffer = buffer.slice(newline + 1);
      if (events.some((event) => turnEnded(event, conversation.turnId))) break;
    }
  } catch (error) {
    // The wait ran out (or the turn was stopped): report what arrived so far.
    if (!waited.aborted) throw error;
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return events;
}

/** Status and reply of the conversation's last `ask` (or of its latest turn, when that is unknown). */
function summarize(events: RemoteEvent[], turnId: string | undefined): { status: Status; reply?: string; errorMessage?: string } {
  const turn = turnId ?? events.findLast((event) => event.type === "turn.started")?.turnId;
  let status: Status = "running";
  let reply: string | undefined;
  let errorMessage: string | undefined;
  for (const event of events) {
    if (turn !== undefined && event.turnId !== turn) continue;
    if (event.type === "message.completed" && event.data.finishReason !== "tool-calls") reply = event.data.text;
    if (event.type === "turn.completed") {
      status = "completed";
      reply = event.data.result ?? reply;
    }
    if (event.type === "turn.failed") {
      status = "error";
      errorMessage = event.data.message;
    }
  }
  return { status, reply, errorMessage };
}

const conversationKey = (sessionId: string) => `grokbot:session:${sessionId}`;
/** The last conversation a session of this agent had, for `check` and `interrupt` without a sessionId. */
const lastKey = (callerSessionId: string) => `grokbot:last:${callerSessionId}`;

export const cursorGrokBotAgents = defineExtension({
  name: "cursor-grokbot-agents",
  description: "Ask other deployed bots for help and follow their answers.",
  configSchema,
  tools: (config) => {
    const agents: AgentEntry[] = config.agents.map((agent) => (typeof agent === "string" ? { name: agent } : agent));
    const names = agents.map((agent) => agent.name);
    const known = names.join(", ") || "none";

    /** By name (exactly, then ignoring case); the only bot when there is one and none is named. */
    function findAgent(name: string | undefined): AgentEntry {
      if (name === undefined) {
        if (agents.length === 1) return agents[0];
        throw new Error(`Name the agent to ask: one of ${known}.`);
      }
      const agent =
        agents.find((candidate) => candidate.name === name) ??
        agents.find((candidate) => candidate.name.toLowerCase() === name.trim().toLowerCase());
      if (!agent) throw new Error(`Unknown agent "${name}". Known agents: ${known}.`);
      if (!baseUrlOf(agent)) throw new Error(`Agent "${agent.name}" has no url: give it one, or set ${GROKBOT_AGENTS_URL}.`);
      return agent;
    }

    /** The conversation named by sessionId, or the last one of this session; `agent`, when given, must be its bot. */
    async function remembered(ctx: ToolContext, agentName: string | undefined, sessionId: string | undefined): Promise<Conversation> {
      const stored = await ctx.host.kv.get(sessionId === undefined ? lastKey(ctx.session.id) : conversationKey(sessionId));
      const conversation = stored as unknown as Conversation | undefined;
      const agent = agentName === undefined ? undefined : findAgent(agentName).name;
      if (!conversation || (agent !== undefined && conversation.agent !== agent)) {
        const withAgent = agent ? ` with ${agent}` : "";
        throw new Error(
          sessionId === undefined
            ? `No conversation${withAgent} was started in this session: ask first, or pass the sessionId ask returned.`
            : `No conversation ${sessionId}${withAgent} was started by this agent.`,
        );
      }
      return conversation;
    }

    async function remember(ctx: ToolContext, conversation: Conversation): Promise<void> {
      const value = conversation as unknown as JsonValue;
      await ctx.host.kv.put(conversationKey(conversation.sessionId), value);
      await ctx.host.kv.put(lastKey(ctx.session.id), value);
    }

    async function report(agent: AgentEntry, conversation: Conversation, waitSeconds: number | undefined, ctx: ToolContext) {
      const events = await sessionEvents(agent, conversation, (waitSeconds ?? 0) * 1000, ctx.abortSignal);
      return { agent: agent.name, sessionId: conversation.sessionId, ...summarize(events, conversation.turnId) };
    }

    const agentName = z
      .string()
      .optional()
      .describe(agents.length === 1 ? `Default ${names[0]} (the only agent)` : `One of: ${known}`);
    const waitSeconds = z
      .number()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .optional()
      .describe(`Wait up to this many seconds (at most ${MAX_WAIT_SECONDS}) for the reply; default 0, answer at once`);
    const sessionIdInput = z.string().optional().describe("The conversation; default the last one started in this session");

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
        inputSchema: z.object({
          agent: agentName,
          message: z.string(),
          sessionId: z.string().optional().describe("Continue this conversation instead of starting one"),
          wait_seconds: waitSeconds,
        }),
        execute: ({ agent, message, sessionId, wait_seconds }, ctx) =>
          asToolResult(SERVICE, async () => {
            const entry = findAgent(agent);
            let conversation: Conversation;
            if (sessionId === undefined) {
              const started = await requestJson(entry, "/v1/session", { method: "POST", body: { message }, signal: ctx.abortSignal });
              conversation = {
                agent: entry.name,
                sessionId: String(started.sessionId),
                continuationToken: String(started.continuationToken),
                turnId: started.turnId as string | undefined,
              };
            } else {
              const previous = await remembered(ctx, entry.name, sessionId);
              const followed = await requestJson(entry, `/v1/session/${encodeURIComponent(sessionId)}`, {
                method: "POST",
                body: { message, continuationToken: previous.continuationToken },
                signal: ctx.abortSignal,
              });
              conversation = { ...previous, continuationToken: String(followed.continuationToken), turnId: followed.turnId as string | undefined };
            }
            await remember(ctx, conversation);
            return report(entry, conversation, wait_seconds, ctx);
          }),
      }),
      check: defineTool({
        description: "Status and reply so far of a conversation started with ask (default: the last one).",
        effect: "read",
        inputSchema: z.object({ agent: agentName, sessionId: sessionIdInput, wait_seconds: waitSeconds }),
        execute: ({ agent, sessionId, wait_seconds }, ctx) =>
          asToolResult(SERVICE, async () => {
            const conversation = await remembered(ctx, agent, sessionId);
            return report(findAgent(conversation.agent), conversation, wait_seconds, ctx);
          }),
      }),
      interrupt: defineTool({
        description: "Stop the agent's running turn in a conversation (default: the last one).",
        effect: "write",
        inputSchema: z.object({ agent: agentName, sessionId: sessionIdInput }),
        execute: ({ agent, sessionId }, ctx) =>
          asToolResult(SERVICE, async () => {
            const conversation = await remembered(ctx, agent, sessionId);
            const path = `/v1/session/${encodeURIComponent(conversation.sessionId)}/stop`;
            const stopped = await requestJson(findAgent(conversation.agent), path, { method: "POST", signal: ctx.abortSignal });
            return { agent: conversation.agent, sessionId: conversation.sessionId, status: stopped.status };
          }),
      }),
    };
  },
});

export default cursorGrokBotAgents;
