import { executeTool, type ToolOutcome } from "../harness/execute-tool.ts";
import type { ResolvedAgent } from "../load/types.ts";
import type { McpConnections } from "../mcp/connections.ts";
import { BdkError } from "../protocol/errors.ts";
import type { Principal } from "../protocol/events.ts";
import type { AsyncStore } from "../store/async-store.ts";
import { connectionTools, type ModelOffer, modelOffer, NEW_SESSION_WORKSPACE } from "./model-offer.ts";
import { requireSession } from "./session-access.ts";
import { authoredTools, toolContextFor, type TurnServices } from "./turn-setup.ts";
import { DIRECT_CALLS_WORKSPACE, type SessionWorkspaces } from "./workspaces.ts";

export interface SessionToolsOptions {
  store: AsyncStore;
  services: TurnServices;
  workspaces: SessionWorkspaces;
  /** The agent now (it is swapped on reload). */
  agent: () => ResolvedAgent;
  mcp?: Pick<McpConnections, "modelTools">;
}

/** The agent's tools outside a model turn: what a turn would offer the model, and a tool called directly. */
export class SessionTools {
  constructor(private readonly options: SessionToolsOptions) {}

  /**
   * What a turn would offer the model now: of `sessionId` (its workspace,
   * its memory scope, a fork's overrides), or of a new session `principal`
   * starts over HTTP, whose workspace does not exist yet (named by
   * `NEW_SESSION_WORKSPACE`).
   */
  async modelOffer(principal: Principal, sessionId?: string): Promise<ModelOffer> {
    const { store, services, workspaces, mcp } = this.options;
    const agent = this.options.agent();
    const session = sessionId ? await requireSession(store, sessionId, principal) : undefined;
    return await modelOffer({
      services,
      agent,
      session: session ?? { id: "", principal, channel: "http", dryRun: false, fork: null },
      workspaceDir: session ? workspaces.dirOf(session) : NEW_SESSION_WORKSPACE,
      connectionTools: await connectionTools(mcp, agent),
      // A preview runs nothing: the `task` tool it lists is never called.
      emit: () => {},
      gate: undefined,
    });
  }

  /** A tool call without a model turn; the approval gate does not apply. */
  async callTool(name: string, input: unknown, options: { sessionId?: string; principal: Principal }): Promise<ToolOutcome> {
    const { store, services, workspaces } = this.options;
    const agent = this.options.agent();
    const tool = authoredTools(agent).find((candidate) => candidate.name === name);
    if (!tool) throw new BdkError("not_found", `No tool named "${name}". See GET /v1/tools for the list.`);
    const session = options.sessionId ? await requireSession(store, options.sessionId, options.principal) : undefined;
    const owner = session ?? DIRECT_CALLS_WORKSPACE;
    if (tool.execution === "agent") await workspaces.prepare(owner, agent);
    const scope = { session, workspaceDir: workspaces.dirOf(owner) };
    const ctx = toolContextFor(services, agent, scope, undefined, new AbortController().signal);
    return executeTool(tool, input, ctx);
  }
}
