import type { ToolContext } from "../authoring/tools.ts";
import type { HostServices } from "../authoring/types.ts";
import { createArtifactsApi } from "../host/artifacts-api.ts";
import type { ModelCandidate, ToolGate } from "../harness/run-turn.ts";
import { runTurn } from "../harness/run-turn.ts";
import { createTagArtifactTool } from "../harness/tag-artifact-tool.ts";
import { builtinTools, runAgentTool } from "../harness/builtin-tools/index.ts";
import { createTaskTool } from "../harness/task-tool.ts";
import { MAX_TIMER_MS } from "../harness/tool-guard.ts";
import { createReminderTools } from "../reminders/reminder-tools.ts";
import type { AgentConfig, LoadedTool, ResolvedAgent, ResolvedSubagent } from "../load/types.ts";
import type { EventDraft } from "../protocol/events.ts";
import type { ModelStepRecord } from "../protocol/model-calls.ts";
import type { AsyncStore } from "../store/async-store.ts";
import type { SessionRow } from "../store/types.ts";

/** What a turn needs from its runtime, beyond the agent. */
export interface TurnServices {
  store: AsyncStore;
  host: HostServices;
  now: () => Date;
  resolveModels(config: Pick<AgentConfig, "model" | "modelFallbacks">, agentName: string): ModelCandidate[];
  isModelUnavailable(error: unknown): boolean;
  /** Appends events to a session (persist, publish, hooks). */
  append(sessionId: string, drafts: EventDraft[]): Promise<unknown>;
  /** Sees a subagent's own events, which are not recorded (telemetry makes them child spans). */
  onSubagentEvent?: SubagentEventSink;
}

/** Stores a model step of a turn: `scope` is "" for the turn's own steps, the parent's `task` call id for a subagent's. */
export type StepRecorder = (scope: string, record: ModelStepRecord) => void;

/** A subagent's event as it happens, with the session and the parent's `task` call that runs it. */
export type SubagentEventSink = (sessionId: string, parentToolCallId: string, draft: EventDraft) => void;

export interface SessionScope {
  session: Pick<SessionRow, "id" | "purpose" | "dryRun"> | undefined;
  workspaceDir: string;
  /** The running turn, to stamp events that tools cause (artifact.tagged). */
  turnId?: string;
}

/** `ctx` for a tool call: session facts, host services, artifacts recorded on the session. */
export function toolContextFor(
  services: TurnServices,
  agent: ResolvedAgent,
  scope: SessionScope,
  toolCallId: string | undefined,
  signal: AbortSignal,
): ToolContext {
  const sessionId = scope.session?.id;
  return {
    session: {
      id: sessionId ?? "direct",
      purpose: scope.session?.purpose ?? undefined,
      dryRun: scope.session?.dryRun ?? false,
    },
    toolCallId,
    now: services.now,
    workspaceDir: scope.workspaceDir,
    abortSignal: signal,
    artifacts: createArtifactsApi({
      store: services.store,
      registry: agent.artifacts,
      sessionId,
      onTagged: sessionId
        ? (artifact) => services.append(sessionId, [{ type: "artifact.tagged", turnId: scope.turnId, data: artifact }])
        : undefined,
    }),
    host: withCallSignal(services.host, signal),
  };
}

/** The host a tool sees: its MCP calls stop when the turn does. */
function withCallSignal(host: HostServices, signal: AbortSignal): HostServices {
  return {
    ...host,
    mcp: {
      names: () => host.mcp.names(),
      callTool: (connection, tool, args, options) => host.mcp.callTool(connection, tool, args, { signal, ...options }),
    },
  };
}

const AGENT_TOOL_TIMEOUT_MS = 120_000;

/** How long an agent tool's script may run: the tool's `timeoutMs` (`Infinity` as long as a timer can wait). */
function scriptLimit(tool: LoadedTool): number {
  return Math.min(tool.timeoutMs ?? AGENT_TOOL_TIMEOUT_MS, MAX_TIMER_MS);
}

/**
 * The agent's authored tools, ready to run: `execution: "agent"` tools run
 * as scripts in the session workspace (no `ctx.host`, no server secrets).
 */
export function authoredTools(agent: ResolvedAgent): LoadedTool[] {
  const sandbox = agent.config.local?.sandbox;
  return agent.tools.map((tool) =>
    tool.execution !== "agent"
      ? tool
      : {
          ...tool,
          // The script is killed at its limit; the harness's limit only backs that up.
          timeoutMs: scriptLimit(tool) + 60_000,
          async execute(input, ctx) {
            const { output, isError } = await runAgentTool({
              workspaceDir: ctx.workspaceDir,
              name: tool.name,
              input,
              timeoutMs: scriptLimit(tool),
              signal: ctx.abortSignal,
              sandbox,
              projectDir: agent.rootDir,
              sessionId: ctx.session.id,
            });
            if (isError) throw new Error(typeof output === "string" ? output : JSON.stringify(output));
            return output;
          },
        },
  );
}

/**
 * The tools a turn offers the model: authored ones first (the scripted
 * model breaks ties by this order), the harness built-ins, the MCP
 * connections' tools (listed by the caller, which may have to open clients),
 * then `task` and `tag_artifact` when configured.
 */
export function toolsForTurn(
  services: TurnServices,
  agent: ResolvedAgent,
  emit: (draft: EventDraft) => void,
  gate: ToolGate | undefined,
  connectionTools: LoadedTool[] = [],
  recordStep?: StepRecorder,
): LoadedTool[] {
  const tools = [...staticTools(agent), ...connectionTools];
  if (agent.artifacts?.agentTool) addUnlessNamed(tools, createTagArtifactTool(agent.artifacts));
  if (agent.subagents.length > 0 && allowed(agent, "task")) {
    addUnlessNamed(
      tools,
      createTaskTool({
        subagents: agent.subagents,
        emit,
        runSubagent: (subagent, prompt, ctx) => runSubagent(services, agent, subagent, prompt, ctx, tools, gate, recordStep),
      }),
    );
  }
  return tools;
}

/** A project's own tool named like a built-in replaces it (validate warns): the model never gets two tools of one name. */
function addUnlessNamed(tools: LoadedTool[], tool: LoadedTool): void {
  if (!tools.some((existing) => existing.name === tool.name)) tools.push(tool);
}

const staticToolsByAgent = new WeakMap<ResolvedAgent, LoadedTool[]>();

/** Authored and built-in tools depend only on the agent version: built once per loaded agent. */
function staticTools(agent: ResolvedAgent): LoadedTool[] {
  let tools = staticToolsByAgent.get(agent);
  if (!tools) {
    tools = authoredTools(agent);
    const harness = [
      ...builtinTools({ skills: agent.skills, sandbox: agent.config.local?.sandbox, allow: agent.config.tools }),
      ...(agent.config.builtinTools?.reminders ? createReminderTools() : []),
    ];
    for (const tool of harness) addUnlessNamed(tools, tool);
    staticToolsByAgent.set(agent, tools);
  }
  return tools;
}

/** Names of the tools every turn offers without opening MCP clients (what a tool stub may name). */
export function staticToolNames(agent: ResolvedAgent): string[] {
  const names = staticTools(agent).map((tool) => tool.name);
  if (agent.artifacts?.agentTool) names.push("tag_artifact");
  if (agent.subagents.length > 0 && allowed(agent, "task")) names.push("task");
  return [...new Set(names)];
}

function allowed(agent: ResolvedAgent, builtin: string): boolean {
  return agent.config.tools === undefined || agent.config.tools.includes(builtin);
}

/**
 * A subagent runs its own loop with the parent's tools (not `task`: no
 * recursion) and the parent's model unless it sets one. Its events stay
 * private (only `onSubagentEvent` sees them); the parent records
 * `subagent.called` / `subagent.completed`. Its model steps are stored
 * under the parent's `task` call, so the Trace tab can open them.
 */
async function runSubagent(
  services: TurnServices,
  parent: ResolvedAgent,
  subagent: ResolvedSubagent,
  prompt: string,
  ctx: ToolContext,
  parentTools: LoadedTool[],
  gate: ToolGate | undefined,
  recordStep: StepRecorder | undefined,
): Promise<string> {
  const config = subagent.config.model ? subagent.config : parent.config;
  const sink = services.onSubagentEvent;
  const result = await runTurn({
    system: subagent.instructions,
    history: [],
    message: prompt,
    tools: parentTools.filter((tool) => tool.name !== "task"),
    models: services.resolveModels(config, subagent.id),
    isModelUnavailable: services.isModelUnavailable,
    toolContext: (toolCallId) => ({ ...ctx, toolCallId }),
    gate,
    abortSignal: ctx.abortSignal,
    emit: sink ? (draft) => sink(ctx.session.id, ctx.toolCallId ?? "direct", draft) : () => {},
    recordStep: recordStep && ((record) => recordStep(ctx.toolCallId ?? "direct", record)),
  });
  return result.text;
}

/** `bot/result.ts` as the loop's commit step: resolves the rejection message, if any. */
export function resultCommitter(
  agent: ResolvedAgent,
  ctx: Pick<ToolContext, "session" | "host" | "artifacts">,
): ((text: string) => Promise<string | undefined>) | undefined {
  const result = agent.result;
  if (!result) return undefined;
  return async (text) => {
    let rejection: string | undefined;
    await result.commit(text, {
      session: { id: ctx.session.id, purpose: ctx.session.purpose },
      host: ctx.host,
      artifacts: ctx.artifacts,
      reject: (message) => {
        rejection = message;
      },
    });
    return rejection;
  };
}
