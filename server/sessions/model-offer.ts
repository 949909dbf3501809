/**
 * What the model is offered on a session's turn: the system prompt, part by
 * part with where each part comes from, and the tool list. A turn runs on
 * it (`TurnExecutor`) and `GET /v1/agent/offer` shows it (the Agent tab),
 * so what the playground shows is what the model gets.
 */
import type { ToolGate } from "../harness/run-turn.ts";
import { type PromptSection, systemPromptSections } from "../harness/system-prompt.ts";
import type { LoadedTool, ResolvedAgent, ToolSource } from "../load/types.ts";
import { McpConnections } from "../mcp/connections.ts";
import { recallSection } from "../memory/memory.ts";
import type { EventDraft } from "../protocol/events.ts";
import type { SessionRow } from "../store/types.ts";
import { withToolStubs } from "./run-overrides.ts";
import { type StepRecorder, toolsForTurn, type TurnServices } from "./turn-setup.ts";

export interface ModelOffer {
  botVersion: string;
  systemPrompt: PromptSection[];
  tools: LoadedTool[];
}

/** The workspace path a new session's prompt shows before the session (and its directory) exists. */
export const NEW_SESSION_WORKSPACE = "<the new session's workspace>";

export interface OfferInput {
  services: TurnServices;
  agent: ResolvedAgent;
  /** The session the turn belongs to (memory recall reads its principal and channel; a fork its overrides). */
  session: Pick<SessionRow, "id" | "principal" | "channel" | "dryRun" | "fork">;
  workspaceDir: string;
  /** The MCP connections' tools, listed by the caller (which may have to open clients). */
  connectionTools: LoadedTool[];
  /** Where the `task` tool records its subagent's calls; a preview records nothing. */
  emit: (draft: EventDraft) => void;
  gate: ToolGate | undefined;
  /** Where a subagent's model steps are recorded (the Trace tab); a preview records nothing. */
  recordStep?: StepRecorder;
}

/** The prompt and tools of a turn; a fork's overrides replace the prompt and stub the tools they name. */
export async function modelOffer(input: OfferInput): Promise<ModelOffer> {
  const { services, agent, session } = input;
  const overrides = session.fork?.overrides;
  const systemPrompt =
    overrides?.instructions !== undefined
      ? [{ source: "fork" as const, text: overrides.instructions }]
      : systemPromptSections(agent, input.workspaceDir, await recallSection(services.store, agent, session));
  const tools = withToolStubs(toolsForTurn(services, agent, input.emit, input.gate, input.connectionTools, input.recordStep), overrides);
  return { botVersion: agent.version, systemPrompt, tools };
}

/**
 * MCP tools, opening clients on first use; agents without model
 * connections skip the await. A stop does not wait for a slow server: the
 * turn goes on without the tools and ends as stopped.
 */
export async function connectionTools(
  mcp: Pick<McpConnections, "modelTools"> | undefined,
  agent: ResolvedAgent,
  signal?: AbortSignal,
): Promise<LoadedTool[]> {
  if (!mcp || !McpConnections.offersTools(agent) || signal?.aborted) return [];
  if (!signal) return mcp.modelTools(agent);
  const stopped = new Promise<LoadedTool[]>((resolve) => signal.addEventListener("abort", () => resolve([]), { once: true }));
  return Promise.race([mcp.modelTools(agent), stopped]);
}

/** Where a tool in the offer comes from, as the playground names it. */
export type OfferedToolSource = "bot" | "built-in" | "mcp" | "extension" | "reminders" | "artifacts" | "subagents";

export interface OfferedTool {
  name: string;
  source: OfferedToolSource;
  /** The MCP connection, for `mcp` tools. */
  connection?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** A fork's stub answers instead of the tool. */
  stubbed?: true;
}

const SOURCE_NAMES: Record<ToolSource, OfferedToolSource> = {
  authored: "bot",
  builtin: "built-in",
  reminders: "reminders",
  artifacts: "artifacts",
  subagents: "subagents",
  connection: "mcp",
  extension: "extension",
};

/** The offer as `GET /v1/agent/offer` answers it. */
export function offerJson(offer: ModelOffer) {
  const tools: OfferedTool[] = offer.tools.map((tool) => ({
    name: tool.name,
    source: SOURCE_NAMES[tool.source],
    ...(tool.connection ? { connection: tool.connection } : {}),
    description: tool.description,
    inputSchema: tool.inputJsonSchema,
    ...(tool.stubbed ? { stubbed: true as const } : {}),
  }));
  return { botVersion: offer.botVersion, systemPrompt: offer.systemPrompt, tools };
}
