import { nodeId } from "../host/node-id.ts";
import path from "node:path";
import type { ModelMessage } from "ai";
import type { HostServices } from "../authoring/types.ts";
import { pathSyntaxProblem, planWorkspaceFiles } from "../harness/workspace.ts";
import type { ModelCandidate } from "../harness/run-turn.ts";
import { JOURNAL_FOLDER, MemoryJournal } from "../memory/journal.ts";
import { createHostServices } from "../host/services.ts";
import type { Logger } from "../host/logger.ts";
import type { AgentConfig, ResolvedAgent } from "../load/types.ts";
import { McpConnections } from "../mcp/connections.ts";
import { BdkError, messageOf } from "../protocol/errors.ts";
import type { AnyBdkEvent, EventDraft, Principal, SessionMode } from "../protocol/events.ts";
import { newContinuationToken, newSessionId, newTurnId } from "../protocol/ids.ts";
import type { AsyncStore, AsyncTransaction } from "../store/async-store.ts";
import type { RunOverrides, SessionRow } from "../store/types.ts";
import { ApprovalDesk } from "./approval-desk.ts";
import { ApprovalInbox } from "./approval-inbox.ts";
import { SessionEventLog } from "./event-log.ts";
import { dispatchToHooks } from "./hook-runner.ts";
import { type Answered, IdempotentAnswers } from "./idempotent-answers.ts";
import { LiveSessions } from "./live-sessions.ts";
import { requireSession } from "./session-access.ts";
import { SessionReader } from "./session-reader.ts";
import { SessionTools } from "./session-tools.ts";
import { cutForFork, type ForkPoint } from "./fork-cut.ts";
import { LeaseSweeper } from "./lease-sweeper.ts";
import { checkToolStubs, modelConfigFor } from "./run-overrides.ts";
import { type Admission, TurnChain } from "./turn-chain.ts";
import { TurnExecutor } from "./turn-executor.ts";
import type { TurnEnd } from "./turn-runner.ts";
import { type SubagentEventSink, staticToolNames, toolContextFor, type TurnServices } from "./turn-setup.ts";
import { localTurnLeases, type TurnLeases } from "./turn-lease.ts";
import { TurnSlots } from "./turn-slots.ts";
import { SessionWorkspaces } from "./workspaces.ts";

export interface SessionRuntimeOptions {
  agent: ResolvedAgent;
  /** SQLite (`asyncStore(openStore(…))`) or Postgres (`openPgStore`). */
  store: AsyncStore;
  stateRoot: string;
  logger: Logger;
  /** Resolves the model chain for a turn; throws `model_unavailable` when none can run. */
  resolveModels(config: Pick<AgentConfig, "model" | "modelFallbacks">, agentName: string): ModelCandidate[];
  isModelUnavailable(error: unknown): boolean;
  now?: () => Date;
  /** The `host` tools and handlers see; default: services without reminders or GitHub access. */
  host?: HostServices;
  /** The agent's MCP clients: their model-visible tools join every turn. */
  mcp?: Pick<McpConnections, "modelTools">;
  /** Idle sessions whose history stays cached in memory (default 256); older ones are rebuilt from events. */
  idleSessionsCached?: number;
  /** Sees subagents' events, which are not recorded (`reader.observe` sees the recorded ones). */
  onSubagentEvent?: SubagentEventSink;
  /** Who owns each session's turns: `pgTurnLeases` on a shared database; default one process owns all (SQLite). */
  leases?: TurnLeases;
}

export interface StartSessionInput {
  message: string;
  principal: Principal;
  title?: string;
  mode?: SessionMode;
  channel?: string;
  continuationToken?: string;
  channelState?: unknown;
  purpose?: string;
  dryRun?: boolean;
  /** Relative path → contents, written into the workspace before the turn. */
  workspaceFiles?: Record<string, string>;
  /** This session's working directory (a PR worktree), absolute or from the project root; default: the agent's. */
  workspaceDir?: string;
}

export interface FollowUpInput {
  message: string;
  principal: Principal;
  continuationToken?: string;
  admission?: Admission;
  /** Rotate the token after this message (HTTP follow-ups); a session started by another channel keeps its own. */
  rotateToken?: boolean;
  workspaceFiles?: Record<string, string>;
}

export interface ForkInput {
  /** Who asks: must be allowed to read the source (its owner, or dev acting as the owner). */
  principal: Principal;
  /** Who holds the fork. */
  owner: Principal;
  /**
   * Where to cut: before a `message.received` (the fork inherits the events
   * before it and answers that message again), or after any event inside a
   * turn (the fork inherits the events up to it and picks the turn up).
   */
  at: ForkPoint;
  /** Edit and resend (a cut before a message only): this message instead of the one at the cut. */
  message?: string;
  overrides?: RunOverrides;
  title?: string;
}

export interface TurnHandle {
  sessionId: string;
  continuationToken: string;
  /** The turn that answers the message (a coalesced message joins the turn waiting for the running one). */
  turnId: string;
  /** Settles when this turn ends. */
  done: Promise<TurnEnd>;
}

/** What a follow-up over HTTP answers (and what a retry with its `Idempotency-Key` gets again). */
export interface FollowUpAnswer {
  [key: string]: string;
  sessionId: string;
  continuationToken: string;
  turnId: string;
}

/**
 * Durable sessions of one agent: creation, follow-ups, forks, stop,
 * deletion and restart recovery. HTTP, channels, the CLI and evals all go
 * through here. Its public parts: reading and following the log
 * (`reader`, `SessionReader`), the approvals inbox (`inbox`,
 * `ApprovalInbox`) and the tools outside a turn (`tools`, `SessionTools`);
 * callers use those directly. Inside: admission and the turn chain
 * (`TurnChain`), running one turn (`TurnExecutor`), the event log
 * (`SessionEventLog`), what stays in memory (`LiveSessions`), workspaces
 * (`SessionWorkspaces`), parked calls (`ApprovalDesk`) and recovery
 * (`LeaseSweeper`).
 */
export class SessionRuntime {
  agent: ResolvedAgent;
  /** The agent's store: callers that accept a message in their own transaction (a delivery id, a reminder's tick) open it here. */
  readonly store: AsyncStore;
  /** Stored events, follows, turn traces and the observer of every recorded event. */
  readonly reader: SessionReader;
  /** The approvals inbox: parked calls and calls in doubt, and a person's decision on each. */
  readonly inbox: ApprovalInbox;
  /** The agent's tools outside a turn: the model-offer preview and direct tool calls. */
  readonly tools: SessionTools;
  /** `memoryHook`: every completed turn, shared by all sessions (`memory/journal.jsonl` in each workspace). */
  private readonly journal: MemoryJournal;
  private readonly host: HostServices;
  private readonly now: () => Date;
  private readonly log: SessionEventLog;
  private readonly nodeId = nodeId();
  private readonly lives: LiveSessions;
  private readonly workspaces: SessionWorkspaces;
  private readonly approvals: ApprovalDesk;
  private readonly services: TurnServices;
  private readonly chain: TurnChain;
  private readonly answers: IdempotentAnswers;
  private readonly leases: TurnLeases;
  private readonly sweeper: LeaseSweeper;

  constructor(private readonly options: SessionRuntimeOptions) {
    this.journal = new MemoryJournal(path.join(options.stateRoot, JOURNAL_FOLDER), (error) =>
      options.logger.warn(`Memory: could not append to the journal: ${messageOf(error)}`),
    );
    this.agent = options.agent;
    this.store = options.store;
    this.now = options.now ?? (() => new Date());
    this.leases = options.leases ?? localTurnLeases;
    this.host = options.host ?? createHostServices({ agentName: options.agent.name, store: this.store, logger: options.logger });
    this.log = new SessionEventLog(this.store, options.logger, this.now);
    this.log.observe((sessionId, events) => {
      if (this.agent.hooks.size > 0) {
        this.runHooks(sessionId, events).catch((error: unknown) => options.logger.error(`Hooks of session ${sessionId}: ${messageOf(error)}`));
      }
    });
    this.lives = new LiveSessions(options.idleSessionsCached);
    this.reader = new SessionReader({ store: this.store, log: this.log, lives: this.lives, nodeId: this.nodeId, now: this.now });
    this.workspaces = new SessionWorkspaces({ agent: () => this.agent, stateRoot: options.stateRoot });
    this.approvals = new ApprovalDesk(
      this.store,
      (sessionId, drafts) => this.log.append(sessionId, drafts),
      options.logger,
      (error) => options.logger.error(`Could not record the denial of a stopped turn's approval: ${messageOf(error)}`),
    );
    this.services = {
      store: this.store,
      host: this.host,
      now: this.now,
      resolveModels: options.resolveModels,
      isModelUnavailable: options.isModelUnavailable,
      append: (sessionId, drafts) => this.log.append(sessionId, drafts),
      onSubagentEvent: options.onSubagentEvent,
    };
    this.tools = new SessionTools({
      store: this.store,
      services: this.services,
      workspaces: this.workspaces,
      agent: () => this.agent,
      mcp: options.mcp,
    });
    const executor = new TurnExecutor({
      store: this.store,
      log: this.log,
      lives: this.lives,
      workspaces: this.workspaces,
      approvals: this.approvals,
      slots: new TurnSlots(options.agent.config.concurrency?.maxRunningTurns ?? Number.POSITIVE_INFINITY),
      leases: this.leases,
      services: this.services,
      logger: options.logger,
      agent: () => this.agent,
      journal: this.journal,
      mcp: options.mcp,
    });
    this.chain = new TurnChain({
      store: this.store,
      lives: this.lives,
      log: this.log,
      executor,
      approvals: this.approvals,
      logger: options.logger,
      now: this.now,
      agent: () => this.agent,
    });
    this.answers = new IdempotentAnswers(this.store, this.now);
    this.inbox = new ApprovalInbox({
      store: this.store,
      log: this.log,
      desk: this.approvals,
      resumeParked: (sessionId, turnId) => this.chain.resumeParked(sessionId, turnId),
    });
    this.sweeper = new LeaseSweeper({
      store: this.store,
      log: this.log,
      workspaces: this.workspaces,
      logger: options.logger,
      now: this.now,
      leases: this.leases,
      chain: this.chain,
      busy: (sessionId) => {
        const live = this.lives.get(sessionId);
        return live?.running !== undefined || live?.next !== undefined;
      },
    });
  }

  /** Swaps in a reloaded agent; running turns keep the version they started with. */
  replaceAgent(agent: ResolvedAgent): void {
    this.agent = agent;
  }

  get hostServices(): HostServices {
    return this.host;
  }

  /**
   * Stores the session and its first message, and queues the turn; durable
   * when this resolves. Called inside a caller's transaction (a delivery
   * id, a reminder's next tick), it is a savepoint of it: a failure (a
   * continuation token another process took first) leaves that transaction
   * usable, and its rollback withdraws the session and the turn.
   */
  async startSession(input: StartSessionInput): Promise<TurnHandle> {
    if (input.workspaceDir !== undefined && (typeof input.workspaceDir !== "string" || !input.workspaceDir.trim())) {
      throw new BdkError(
        "invalid_request",
        `workspaceDir must be a non-empty path (absolute, or relative to the project root), got ${JSON.stringify(input.workspaceDir)}.`,
      );
    }
    const existingDir = input.workspaceDir ?? this.agent.config.local?.workspaceDir;
    if (input.workspaceFiles && existingDir) {
      // A directory that may already exist (a worktree, a shared workspace): check against what is on disk.
      planWorkspaceFiles(path.resolve(this.agent.rootDir, existingDir), input.workspaceFiles);
    } else {
      // The workspace is new, so a path that is well formed cannot escape it.
      for (const [file, contents] of Object.entries(input.workspaceFiles ?? {})) {
        const problem = typeof contents === "string" ? pathSyntaxProblem(file) : "must map to a string";
        if (problem) throw new BdkError("invalid_request", `workspaceFiles: ${JSON.stringify(file)} ${problem}`);
      }
    }
    const id = newSessionId();
    const at = this.now().toISOString();
    const token = input.continuationToken ?? newContinuationToken();
    const mode = input.mode ?? "chat";
    const channel = input.channel ?? "http";
    // The row, session.started and the message's turn in one transaction: all of it is stored, or none.
    const turn = await this.store.transaction(async (tx) => {
      const created = await tx.sessions.create({
        id,
        agent: this.agent.name,
        title: input.title ?? titleFrom(input.message),
        mode,
        status: "idle",
        channel,
        principal: input.principal,
        continuationToken: token,
        channelState: input.channelState ?? null,
        purpose: input.purpose ?? null,
        dryRun: input.dryRun ?? false,
        botVersion: this.agent.version,
        workspaceDir: input.workspaceDir ? path.resolve(this.agent.rootDir, input.workspaceDir) : null,
        createdAt: at,
        updatedAt: at,
      });
      this.openNewSession(tx, created, []);
      await this.log.appendToNewSession(tx, id, [{ type: "session.started", data: { mode, channel, title: input.title, principal: input.principal } }]);
      return this.chain.admit(tx, id, input.message, input.workspaceFiles);
    });
    return { sessionId: id, continuationToken: token, turnId: turn.turnId, done: turn.done };
  }

  /**
   * A new session whose history is the source's up to one of its user
   * messages, answering that message again (or an edited one), or up to an
   * event inside a turn, picking that turn up; with the overrides. Stored, listed and streamed like any session; durable when
   * this returns. The inherited events are copied, not replayed: hooks and
   * channel observers never see them a second time.
   */
  async fork(sourceId: string, input: ForkInput): Promise<TurnHandle> {
    const source = await requireSession(this.store, sourceId, input.principal);
    const overrides = input.overrides ?? {};
    if ((overrides.toolResults || overrides.toolCallResults) && !McpConnections.offersTools(this.agent)) checkToolStubs(overrides, staticToolNames(this.agent));
    // An unknown or unconfigured model answers now (model_unavailable), not as a failed turn later.
    if (overrides.model !== undefined || overrides.params !== undefined) {
      this.options.resolveModels(modelConfigFor(this.agent.config, overrides), this.agent.name);
    }
    const channel = "http";
    const events = (await this.store.events.list(sourceId, { fromIndex: 0 })) as AnyBdkEvent[];
    if (input.message !== undefined && "afterIndex" in input.at) {
      throw new BdkError("invalid_request", "message is for a fork before a user message (beforeIndex): a fork cut inside a turn (afterIndex) picks that turn up.");
    }
    const forkTurnId = newTurnId();
    const cut = cutForFork(sourceId, events, input.at, { owner: input.owner, channel, overrides, turnId: forkTurnId });
    const message = input.message ?? cut.message;
    const id = newSessionId();
    const token = newContinuationToken();
    const at = this.now().toISOString();
    const turn = await this.store.transaction(async (tx) => {
      const created = await tx.sessions.create({
        id,
        agent: this.agent.name,
        title: input.title ?? `Fork of ${source.title ?? sourceId}`,
        mode: source.mode,
        status: "idle",
        channel,
        principal: input.owner,
        continuationToken: token,
        purpose: source.purpose,
        // A fork of a dry run stays one: forking must not turn rehearsed writes into real ones.
        dryRun: source.dryRun,
        botVersion: this.agent.version,
        fork: { parentId: sourceId, forkedAt: cut.forkedAt, overrides },
        createdAt: at,
        updatedAt: at,
      });
      await this.log.appendToNewSession(tx, id, cut.inherited);
      await tx.modelCalls.copyToFork(sourceId, id, cut.turns);
      // History is rebuilt from the inherited events when the turn starts.
      this.openNewSession(tx, created, undefined);
      return cut.pickUp ? this.chain.pickUp(tx, id, forkTurnId, message, cut.pickUp) : this.chain.admit(tx, id, message, undefined);
    });
    return { sessionId: id, continuationToken: token, turnId: turn.turnId, done: turn.done };
  }

  /**
   * Stores the message and admits it (`preempt` by default, or `coalesce`
   * into the turn waiting for the running one); durable when this resolves.
   * In a caller's transaction, a savepoint of it (as for `startSession`).
   */
  async followUp(sessionId: string, input: FollowUpInput): Promise<TurnHandle> {
    const session = await requireSession(this.store, sessionId, input.principal);
    if (session.mode === "task") {
      throw new BdkError("task_session", `Session ${sessionId} is a task session; it does not accept follow-ups.`);
    }
    if (input.continuationToken !== undefined && input.continuationToken !== session.continuationToken) {
      throw new BdkError(
        "stale_token",
        "The continuation token is stale: use the token returned by the last accepted message.",
      );
    }
    if (input.workspaceFiles) this.workspaces.check(session, input.workspaceFiles);
    return this.store.transaction(async (tx) => {
      let token = session.continuationToken ?? newContinuationToken();
      // Only tokens the HTTP channel issued rotate: a channel's own token (`pr:acme/checkout#42`)
      // must keep reaching this session when the playground or the API sends a follow-up.
      if (input.rotateToken && session.channel === "http") {
        const rotated = newContinuationToken();
        // Atomic swap: of two follow-ups racing with the same token, one wins and the other is stale.
        if (!(await tx.sessions.rotateToken(sessionId, token, rotated))) {
          throw new BdkError("stale_token", "The continuation token is stale: another message used it first.");
        }
        token = rotated;
      }
      const turn = await this.chain.admit(tx, sessionId, input.message, input.workspaceFiles, input.admission);
      return { sessionId, continuationToken: token, turnId: turn.turnId, done: turn.done };
    });
  }

  /**
   * `followUp` for HTTP clients. With an `Idempotency-Key`, the answer is
   * stored with the message, and a retry with the same key (even with the
   * token that answer replaced) gets it again instead of a 409.
   */
  async acceptFollowUp(sessionId: string, input: FollowUpInput, idempotencyKey?: string): Promise<Answered<FollowUpAnswer>> {
    const accept = async (): Promise<FollowUpAnswer> => {
      const { continuationToken, turnId } = await this.followUp(sessionId, input);
      return { sessionId, continuationToken, turnId };
    };
    if (idempotencyKey === undefined) return { answer: await accept(), replayed: false };
    await requireSession(this.store, sessionId, input.principal);
    const request = { message: input.message, admission: input.admission ?? null, workspaceFiles: input.workspaceFiles ?? null };
    return this.answers.once(sessionId, idempotencyKey, request, accept);
  }

  /** The session's current continuation token (the owner's way back after a lost response). */
  async continuationToken(sessionId: string, principal: Principal): Promise<string | null> {
    return (await requireSession(this.store, sessionId, principal)).continuationToken;
  }

  /** Interrupts the running turn (and the one waiting for it); `"idle"` when nothing was running. */
  async stop(sessionId: string, principal: Principal): Promise<"stopping" | "idle"> {
    await requireSession(this.store, sessionId, principal);
    return this.interrupt(sessionId) ? "stopping" : "idle";
  }

  /** `stop` for a caller that already holds the session's row (a channel's conversation); false when nothing was running. */
  interrupt(sessionId: string): boolean {
    return this.chain.stop(sessionId);
  }

  /** Resolves once the session has no running or queued turn. */
  idle(sessionId: string): Promise<void> {
    return this.chain.idle(sessionId);
  }

  getSession(sessionId: string, principal: Principal): Promise<SessionRow> {
    return requireSession(this.store, sessionId, principal);
  }

  /** `principal` undefined lists every principal's sessions (dev mode, anonymous). */
  listSessions(query: { principal?: Principal; q?: string; limit?: number; cursor?: string }) {
    return this.store.sessions.list({ ...query, limit: query.limit ?? 50 });
  }

  /**
   * Removes the session with its events; its followers' streams end, a turn
   * still ending there records nothing, and the directory it owned goes
   * once that turn has ended.
   */
  async deleteSession(sessionId: string, principal: Principal): Promise<void> {
    const ownDir = this.workspaces.ownDir(await requireSession(this.store, sessionId, principal));
    this.log.mute(sessionId);
    const ended = this.chain.abandon(sessionId);
    await this.store.sessions.delete(sessionId);
    void ended.then(async () => {
      this.log.unmute(sessionId);
      if (!ownDir) return;
      try {
        await this.workspaces.remove(sessionId, ownDir);
      } catch (error) {
        this.options.logger.warn(`Could not remove the workspace of deleted session ${sessionId}: ${(error as Error).message}`);
      }
    });
  }

  /**
   * After a crash or a stop: what the previous process left unfinished ends
   * `interrupted` (messages it accepted but never answered stay in the
   * conversation); turns parked on an approval wait for a decision. On a
   * shared database this sweep then repeats (lease-sweeper.ts): the turns
   * of a node that died end on one of the others, and those it left parked
   * are adopted there. Returns how many turns this first sweep ended.
   */
  recover(): Promise<number> {
    return this.sweeper.start();
  }

  /**
   * A graceful stop: turns end `interrupted`, as a restart would record
   * them; a turn parked on an approval stays parked (its approval pending)
   * for the next process. Nothing is recorded after this resolves.
   */
  async close(): Promise<void> {
    await this.sweeper.stop();
    await this.chain.shutdown();
    this.leases.close();
    await this.log.close();
    await this.journal.idle();
  }

  /** Persists, then publishes: a follower never sees an event the store could lose. */
  append(sessionId: string, drafts: EventDraft[]): Promise<AnyBdkEvent[]> {
    return this.log.append(sessionId, drafts);
  }

  /**
   * Records an event a running tool causes (a call parked for authorization),
   * stamped with the session's current turn: the tool's own turn, since a
   * preempted turn's calls see their abort before they could record anything.
   */
  async appendToCurrentTurn(sessionId: string, draft: EventDraft): Promise<void> {
    await this.log.append(sessionId, [{ ...draft, turnId: this.chain.runningTurnId(sessionId) }]);
  }

  private async runHooks(sessionId: string, events: readonly AnyBdkEvent[]): Promise<void> {
    const session = await this.store.sessions.get(sessionId);
    if (!session) return;
    const ctx = toolContextFor(
      this.services,
      this.agent,
      { session, workspaceDir: this.workspaces.dirOf(session) },
      undefined,
      new AbortController().signal,
    );
    dispatchToHooks(
      this.agent.hooks,
      events,
      {
        session: { id: session.id, purpose: session.purpose ?? undefined },
        channel: { id: session.channel },
        host: ctx.host,
        artifacts: ctx.artifacts,
      },
      this.options.logger,
    );
  }

  /** A session created in `tx` is known in memory at once; forgotten again if `tx` rolls back. */
  private openNewSession(tx: AsyncTransaction, created: SessionRow, history: ModelMessage[] | undefined): void {
    const live = this.lives.open(created.id);
    live.session = created;
    live.history = history;
    tx.onRollback(() => this.lives.forget(created.id));
  }
}

function titleFrom(message: string): string {
  const line = message.trim().split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}
