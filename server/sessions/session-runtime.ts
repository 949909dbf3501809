import { mkdirSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { ModelMessage } from "ai";
import type { HostServices } from "../authoring/types.ts";
import { executeTool, type ToolOutcome } from "../harness/execute-tool.ts";
import { historyFromEvents } from "../harness/history.ts";
import { pathSyntaxProblem, planWorkspaceFiles, prepareWorkspace, writeWorkspaceFiles } from "../harness/workspace.ts";
import type { ModelCandidate } from "../harness/run-turn.ts";
import { buildSystemPrompt } from "../harness/system-prompt.ts";
import { MemoryJournal, JOURNAL_FOLDER } from "../memory/journal.ts";
import { recallSection, rememberTurn, shareJournal } from "../memory/memory.ts";
import { createHostServices } from "../host/services.ts";
import type { Logger } from "../host/logger.ts";
import type { AgentConfig, LoadedTool, ResolvedAgent } from "../load/types.ts";
import { McpConnections } from "../mcp/connections.ts";
import { BdkError, messageOf } from "../protocol/errors.ts";
import { addUsage, type AnyBdkEvent, type EventDraft, type Principal, samePrincipal, type SessionMode } from "../protocol/events.ts";
import { newContinuationToken, newSessionId, newTurnId } from "../protocol/ids.ts";
import type { Store } from "../store/index.ts";
import type { ApprovalRow, SessionRow } from "../store/types.ts";
import { ApprovalDesk } from "./approval-desk.ts";
import { EventBus } from "./event-bus.ts";
import { toNdjson } from "../protocol/ndjson.ts";
import { followSession } from "./follow.ts";
import { dispatchToHooks } from "./hook-runner.ts";
import { parkedTurnFromEvents } from "./parked-turn.ts";
import {
  authoredTools,
  resultCommitter,
  type SubagentEventSink,
  toolContextFor,
  toolsForTurn,
  type TurnServices,
} from "./turn-setup.ts";

/** Direct calls outside any session share one workspace. */
const DIRECT_CALLS_WORKSPACE = "direct-calls";
import { executeTurn, PREEMPTED, STOPPED, type TurnEnd, type TurnJob } from "./turn-runner.ts";
import { TurnSlots } from "./turn-slots.ts";

export interface SessionRuntimeOptions {
  agent: ResolvedAgent;
  store: Store;
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
  /** Sees subagents' events, which are not recorded (`observe` sees the recorded ones). */
  onSubagentEvent?: SubagentEventSink;
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
  admission?: "preempt" | "coalesce";
  /** Rotate the token after this message (HTTP follow-ups); a session started by another channel keeps its own. */
  rotateToken?: boolean;
  workspaceFiles?: Record<string, string>;
}

export interface TurnHandle {
  sessionId: string;
  continuationToken: string;
  turnId: string;
  /** Settles when this turn ends. */
  done: Promise<TurnEnd>;
}

/** How a turn begins: a new message (with files), or a parked step to resume. */
interface TurnStart {
  message?: string;
  workspaceFiles?: Record<string, string>;
  resume?: TurnJob["resume"];
  history?: ModelMessage[];
}

interface LiveSession {
  /** The stored row as this process last read it (its fixed fields are what turns use). */
  session?: SessionRow;
  /** The bot version the workspace was last prepared for. */
  preparedFor?: string;
  history?: ModelMessage[];
  current?: { turnId: string; controller: AbortController; done: Promise<TurnEnd> };
  /** The tail of this session's turn chain: turns of one session never overlap. */
  tail: Promise<unknown>;
  coalesced: string[];
}

/**
 * Durable sessions of one agent: creation, follow-ups with admission,
 * stop, event append + fan-out, replay, direct tool calls and restart
 * recovery. HTTP, channels, the CLI and evals all go through here.
 */
export class SessionRuntime {
  readonly bus = new EventBus();
  agent: ResolvedAgent;
  private readonly store: Store;
  /** `memoryHook`: every completed turn, shared by all sessions (`memory/journal.jsonl` in each workspace). */
  private readonly journal: MemoryJournal;
  private readonly live = new Map<string, LiveSession>();
  private readonly slots: TurnSlots;
  private readonly host: HostServices;
  private readonly now: () => Date;
  private readonly approvals: ApprovalDesk;
  private readonly services: TurnServices;
  /** Turn events waiting to be stored together (one transaction per burst, not per event). */
  private readonly pendingEvents = new Map<string, EventDraft[]>();
  private readonly createdDirs = new Set<string>();
  private readonly observers = new Set<(sessionId: string, events: readonly AnyBdkEvent[]) => void>();
  /** Sessions deleted by this process: a turn still ending in one records nothing. */
  private readonly deleted = new Set<string>();
  /** Turns parked on an approval by a previous process: sessionId → turnId. */
  private readonly dormant = new Map<string, string>();

  constructor(private readonly options: SessionRuntimeOptions) {
    this.journal = new MemoryJournal(path.join(options.stateRoot, JOURNAL_FOLDER), (error) =>
      options.logger.warn(`Memory: could not append to the journal: ${messageOf(error)}`),
    );
    this.agent = options.agent;
    this.store = options.store;
    this.now = options.now ?? (() => new Date());
    this.slots = new TurnSlots(options.agent.config.concurrency?.maxRunningTurns ?? Number.POSITIVE_INFINITY);
    this.host = options.host ?? createHostServices({ agentName: options.agent.name, store: options.store, logger: options.logger });
    this.approvals = new ApprovalDesk(options.store, (sessionId, drafts) => this.append(sessionId, drafts));
    this.services = {
      store: options.store,
      host: this.host,
      now: this.now,
      resolveModels: options.resolveModels,
      isModelUnavailable: options.isModelUnavailable,
      append: (sessionId, drafts) => this.append(sessionId, drafts),
      onSubagentEvent: options.onSubagentEvent,
    };
  }

  /** Swaps in a reloaded agent; running turns keep the version they started with. */
  replaceAgent(agent: ResolvedAgent): void {
    this.agent = agent;
  }

  get hostServices(): HostServices {
    return this.host;
  }

  startSession(input: StartSessionInput): TurnHandle {
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
    const created = this.store.sessions.create({
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
    const live = this.liveSession(id);
    live.session = created;
    live.history = [];
    this.append(id, [
      { type: "session.started", data: { mode, channel, title: input.title, principal: input.principal } },
    ]);
    const turnId = this.enqueueTurn(id, input.message, input.workspaceFiles);
    return { sessionId: id, continuationToken: token, turnId, done: this.live.get(id)!.current!.done };
  }

  followUp(sessionId: string, input: FollowUpInput): TurnHandle {
    const session = this.requireSession(sessionId, input.principal);
    if (session.mode === "task") {
      throw new BdkError("task_session", `Session ${sessionId} is a task session; it does not accept follow-ups.`);
    }
    if (input.continuationToken !== undefined && input.continuationToken !== session.continuationToken) {
      throw new BdkError(
        "stale_token",
        "The continuation token is stale: use the token returned by the last accepted message.",
      );
    }
    if (input.workspaceFiles) planWorkspaceFiles(this.workspaceDir(sessionId), input.workspaceFiles);
    let token = session.continuationToken ?? newContinuationToken();
    // Only tokens the HTTP channel issued rotate: a channel's own token (`pr:acme/checkout#42`)
    // must keep reaching this session when the playground or the API sends a follow-up.
    if (input.rotateToken && session.channel === "http") {
      const rotated = newContinuationToken();
      // Atomic swap: of two follow-ups racing with the same token, one wins and the other is stale.
      if (!this.store.sessions.rotateToken(sessionId, token, rotated)) {
        throw new BdkError("stale_token", "The continuation token is stale: another message used it first.");
      }
      token = rotated;
    }

    this.cancelDormant(sessionId);
    const live = this.liveSession(sessionId);
    if (live.current && input.admission === "coalesce") {
      live.coalesced.push(input.message);
      return { sessionId, continuationToken: token, turnId: live.current.turnId, done: live.current.done };
    }
    if (live.current) live.current.controller.abort(PREEMPTED);
    const turnId = this.enqueueTurn(sessionId, input.message, input.workspaceFiles);
    return { sessionId, continuationToken: token, turnId, done: live.current!.done };
  }

  /** Interrupts the running turn; `"idle"` when nothing was running. */
  stop(sessionId: string, principal: Principal): "stopping" | "idle" {
    this.requireSession(sessionId, principal);
    if (this.cancelDormant(sessionId)) return "stopping";
    const current = this.live.get(sessionId)?.current;
    if (!current) return "idle";
    this.live.get(sessionId)!.coalesced = [];
    current.controller.abort(STOPPED);
    return "stopping";
  }

  /** Resolves once the session has no running or queued turn. */
  async idle(sessionId: string): Promise<void> {
    for (;;) {
      const tail = this.live.get(sessionId)?.tail;
      if (!tail) return;
      await tail.catch(() => undefined);
      if (this.live.get(sessionId)?.tail === tail) return;
    }
  }

  getSession(sessionId: string, principal: Principal): SessionRow {
    return this.requireSession(sessionId, principal);
  }

  /** `principal` undefined lists every principal's sessions (dev mode, anonymous). */
  listSessions(query: { principal?: Principal; q?: string; limit?: number; cursor?: string }) {
    return this.store.sessions.list({ ...query, limit: query.limit ?? 50 });
  }

  deleteSession(sessionId: string, principal: Principal): void {
    this.requireSession(sessionId, principal);
    const live = this.live.get(sessionId);
    // A turn still ending there must record nothing; an idle session needs no such note.
    if (live?.current) this.deleted.add(sessionId);
    live?.current?.controller.abort(STOPPED);
    this.live.delete(sessionId);
    this.pendingEvents.delete(sessionId);
    this.store.sessions.delete(sessionId);
  }

  /** Replays from `fromIndex` (negative counts back from the end), then follows live. */
  follow(
    sessionId: string,
    principal: Principal,
    fromIndex: number,
    deliver: (events: readonly AnyBdkEvent[]) => void,
  ): () => void {
    const start = this.startIndex(sessionId, principal, fromIndex);
    const replay = mapIterable(this.store.events.iterate(sessionId, start, 1000), (batch) => ({
      batch: batch as readonly AnyBdkEvent[],
      lastIndex: batch[batch.length - 1].index,
    }));
    return followSession(this.bus, sessionId, start, replay, (events) => events, deliver);
  }

  /** `follow` for HTTP streams: the same events as NDJSON text, replayed without a parse/serialise round trip. */
  followNdjson(sessionId: string, principal: Principal, fromIndex: number, deliver: (text: string) => void): () => void {
    const start = this.startIndex(sessionId, principal, fromIndex);
    const replay = mapIterable(this.store.events.iterateNdjson(sessionId, start, 2000), ({ text, lastIndex }) => ({
      batch: text,
      lastIndex,
    }));
    return followSession(this.bus, sessionId, start, replay, toNdjson, deliver);
  }

  /** The stored events from `fromIndex` as one NDJSON text (the `/events` dump). */
  eventsNdjson(sessionId: string, principal: Principal, fromIndex = 0): string {
    const start = this.startIndex(sessionId, principal, fromIndex);
    let text = "";
    for (const batch of this.store.events.iterateNdjson(sessionId, start, 2000)) text += batch.text;
    return text;
  }

  private startIndex(sessionId: string, principal: Principal, fromIndex: number): number {
    const session = this.requireSession(sessionId, principal);
    return fromIndex < 0 ? Math.max(0, session.lastIndex + 1 + fromIndex) : fromIndex;
  }

  events(sessionId: string, principal: Principal, fromIndex = 0): AnyBdkEvent[] {
    const session = this.requireSession(sessionId, principal);
    const start = fromIndex < 0 ? Math.max(0, session.lastIndex + 1 + fromIndex) : fromIndex;
    return this.store.events.list(sessionId, { fromIndex: start }) as AnyBdkEvent[];
  }

  /** A tool call without a model turn; the approval gate does not apply. */
  async callTool(name: string, input: unknown, options: { sessionId?: string; principal: Principal }): Promise<ToolOutcome> {
    const tool = authoredTools(this.agent).find((candidate) => candidate.name === name);
    if (!tool) throw new BdkError("not_found", `No tool named "${name}". See GET /v1/tools for the list.`);
    const session = options.sessionId ? this.requireSession(options.sessionId, options.principal) : undefined;
    const workspaceId = session?.id ?? DIRECT_CALLS_WORKSPACE;
    if (tool.execution === "agent") await this.prepareWorkspace(workspaceId, this.agent);
    const scope = { session, workspaceDir: this.workspaceDir(workspaceId) };
    const ctx = toolContextFor(this.services, this.agent, scope, undefined, new AbortController().signal);
    return executeTool(tool, input, ctx);
  }

  /** Pending approvals the caller may resolve; `principal` undefined = everyone's. */
  listApprovals(principal: Principal | undefined): ApprovalRow[] {
    return this.store.approvals.listPending({ principal });
  }

  /**
   * Approve or deny a parked call; 409 when already resolved. Resumes a turn
   * parked before a restart. `anyOwner`: the caller sees every principal's
   * sessions (dev on loopback, anonymous), so the approvals inbox it is shown
   * includes calls parked by channel sessions, and it may resolve them.
   */
  resolveApproval(
    sessionId: string,
    approvalId: string,
    decision: { approved: boolean; reason?: string },
    principal: Principal,
    options: { anyOwner?: boolean } = {},
  ): ApprovalRow {
    if (!options.anyOwner) this.requireSession(sessionId, principal);
    const row = this.store.approvals.get(approvalId);
    if (!row || row.sessionId !== sessionId) {
      throw new BdkError("not_found", `No approval ${approvalId} in session ${sessionId}.`);
    }
    const waited = this.approvals.resolve(row, { ...decision, by: `${principal.type}:${principal.id}` });
    if (!waited && this.dormant.get(sessionId) === row.turnId) {
      this.dormant.delete(sessionId);
      this.resumeParked(sessionId, row.turnId);
    }
    return this.store.approvals.get(approvalId)!;
  }

  /**
   * After a crash: turns that were running end `turn.failed` `interrupted`,
   * and their sessions go back to waiting (task sessions fail).
   */
  recover(): number {
    let count = 0;
    const parked = new Set(this.store.approvals.listPending().map((approval) => approval.turnId));
    for (const turn of this.store.turns.listByStatus(["queued", "running"])) {
      if (parked.has(turn.id)) {
        this.dormant.set(turn.sessionId, turn.id);
        continue;
      }
      const session = this.store.sessions.get(turn.sessionId);
      this.store.turns.update(turn.id, { status: "interrupted", endedAt: this.now().toISOString() });
      if (!session) continue;
      const message = "The server stopped while this turn was running.";
      this.append(session.id, [
        { type: "turn.failed", turnId: turn.id, data: { status: "interrupted", code: "interrupted", message } },
        session.mode === "task"
          ? { type: "session.failed", data: { code: "interrupted", message } }
          : { type: "session.waiting", data: {} },
      ]);
      this.store.sessions.update(session.id, { status: session.mode === "task" ? "failed" : "waiting" });
      count++;
    }
    return count;
  }

  /** Aborts every running turn and waits for them to settle. */
  async close(): Promise<void> {
    const tails = [...this.live.values()].map((live) => {
      live.current?.controller.abort(STOPPED);
      return live.tail;
    });
    await Promise.allSettled(tails);
    await this.journal.idle();
  }

  /** Persists, then publishes: a follower never sees an event the store could lose. */
  append(sessionId: string, drafts: EventDraft[]): AnyBdkEvent[] {
    // A turn still ending in a session deleted meanwhile has nowhere to record its end.
    if (this.deleted.has(sessionId)) return [];
    const pending = this.pendingEvents.get(sessionId);
    if (pending) this.pendingEvents.delete(sessionId);
    const all = pending ? [...pending, ...drafts] : drafts;
    const stored = this.store.events.append(sessionId, all) as AnyBdkEvent[];
    this.publish(sessionId, stored);
    return pending ? stored.slice(pending.length) : stored;
  }

  /**
   * Records an event a running tool causes (a call parked for authorization),
   * stamped with the session's current turn: the tool's own turn, since a
   * preempted turn's calls see their abort before they could record anything.
   */
  appendToCurrentTurn(sessionId: string, draft: EventDraft): void {
    this.append(sessionId, [{ ...draft, turnId: this.live.get(sessionId)?.current?.turnId }]);
  }

  /**
   * A turn's events are buffered until the end of the current macrotask (or
   * the next direct append to the session), then stored and published
   * together: same order, same indexes, far fewer transactions.
   */
  private appendSoon(sessionId: string, draft: EventDraft): void {
    if (this.deleted.has(sessionId)) return;
    const pending = this.pendingEvents.get(sessionId);
    if (pending) {
      pending.push(draft);
      return;
    }
    this.pendingEvents.set(sessionId, [draft]);
    setImmediate(() => {
      if (!this.pendingEvents.has(sessionId)) return;
      try {
        this.append(sessionId, []);
      } catch (error) {
        // Nobody awaits this flush: a failure is logged, never thrown into the event loop (that would end the server).
        this.options.logger.error(`Could not store events of session ${sessionId}: ${messageOf(error)}`);
      }
    });
  }

  private publish(sessionId: string, events: AnyBdkEvent[]): void {
    if (events.length === 0) return;
    this.bus.publish(sessionId, events);
    if (this.agent.hooks.size > 0) this.runHooks(sessionId, events);
    for (const observer of this.observers) observer(sessionId, events);
  }

  /**
   * Sees every recorded event of every session (after it is stored and
   * published), e.g. for channel delivery events. Returns the unsubscribe.
   */
  observe(observer: (sessionId: string, events: readonly AnyBdkEvent[]) => void): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  private runHooks(sessionId: string, events: AnyBdkEvent[]): void {
    const session = this.store.sessions.get(sessionId);
    if (!session) return;
    const ctx = toolContextFor(
      this.services,
      this.agent,
      { session, workspaceDir: this.workspaceDir(sessionId) },
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

  private enqueueTurn(sessionId: string, message: string, workspaceFiles?: Record<string, string>): string {
    const turnId = newTurnId();
    this.store.turns.create({
      id: turnId,
      sessionId,
      status: "queued",
      message,
      botVersion: this.agent.version,
      createdAt: this.now().toISOString(),
    });
    this.chainTurn(sessionId, turnId, { message, workspaceFiles });
    return turnId;
  }

  /** Continues a turn parked on an approval before a restart, from its parked step. */
  private resumeParked(sessionId: string, turnId: string): void {
    const events = this.store.events.list(sessionId, { fromIndex: 0 }) as AnyBdkEvent[];
    const rebuilt = parkedTurnFromEvents(events, turnId);
    if (!rebuilt) return;
    this.chainTurn(sessionId, turnId, { resume: rebuilt.parked, history: rebuilt.history });
  }

  /** Ends a turn parked before a restart without running it (a stop or a new message). */
  private cancelDormant(sessionId: string): boolean {
    const turnId = this.dormant.get(sessionId);
    if (!turnId) return false;
    this.dormant.delete(sessionId);
    for (const approval of this.store.approvals.listPending({ sessionId })) {
      this.approvals.resolve(approval, { approved: false, by: "system", reason: "the turn was stopped" });
    }
    const session = this.store.sessions.get(sessionId);
    if (session) this.finishTurn(session, turnId, { ...STOPPED }, (draft) => this.append(sessionId, [{ ...draft, turnId }]));
    return true;
  }

  private chainTurn(
    sessionId: string,
    turnId: string,
    start: TurnStart,
  ): void {
    const live = this.liveSession(sessionId);
    const agent = this.agent;
    const controller = new AbortController();
    const run = () => this.runTurn(sessionId, turnId, start, agent, controller);
    // After the previous turn, however it ended (a failure was logged where it happened).
    const done = live.tail.then(run, run);
    live.current = { turnId, controller, done };
    live.tail = done;
    const settled = () => {
      // The last turn of a deleted session has ended: nothing will append to it any more.
      if (live.tail === done && this.deleted.has(sessionId)) {
        this.deleted.delete(sessionId);
        this.live.delete(sessionId);
      }
      if (live.current?.turnId === turnId) live.current = undefined;
      if (live.tail === done && live.coalesced.length > 0 && this.live.get(sessionId) === live) {
        this.enqueueTurn(sessionId, live.coalesced.splice(0).join("\n\n"));
      }
    };
    void done.then(settled, (error: unknown) => {
      this.options.logger.error(`Turn ${turnId} of session ${sessionId} failed to end cleanly: ${messageOf(error)}`);
      settled();
    });
  }

  private async runTurn(
    sessionId: string,
    turnId: string,
    start: TurnStart,
    agent: ResolvedAgent,
    controller: AbortController,
  ): Promise<TurnEnd> {
    const emit = (draft: EventDraft): AnyBdkEvent[] => {
      // Everything a turn records within one tick is stored in one transaction; only
      // message.received is written at once, because its index is needed right away.
      if (draft.type !== "message.received") {
        this.appendSoon(sessionId, { ...draft, turnId });
        return [];
      }
      return this.append(sessionId, [{ ...draft, turnId }]);
    };
    const deleted: TurnEnd = { status: "cancelled", code: "deleted", message: "The session was deleted." };
    if (this.deleted.has(sessionId)) return deleted;
    // What a turn reads of its session (mode, purpose, dry run) never changes: read it once per process.
    const live = this.liveSession(sessionId);
    const session = live.session ?? this.store.sessions.get(sessionId);
    if (!session) return deleted;
    live.session = session;
    let history = start.history;
    if (start.message !== undefined) {
      let written: string[] | undefined;
      try {
        await this.prepareWorkspace(sessionId, agent);
        await shareJournal(this.journal, agent, session, this.workspaceDir(sessionId));
        if (start.workspaceFiles) written = await writeWorkspaceFiles(this.workspaceDir(sessionId), start.workspaceFiles);
      } catch (error) {
        emit({ type: "message.received", data: { message: start.message } });
        const failure = { status: "failed" as const, code: "workspace", message: messageOf(error) };
        return this.finishTurn(session, turnId, failure, emit);
      }
      const received = emit({
        type: "message.received",
        data: { message: start.message, ...(written ? { workspaceFiles: written } : {}) },
      })[0];
      // Deleted while the workspace was being prepared: nothing was recorded, nothing runs.
      if (!received) return deleted;
      history = this.liveSession(sessionId).history ?? this.historyBefore(sessionId, received.index);
    }
    this.store.sessions.update(sessionId, { status: "running" });

    let release: () => void;
    try {
      release = await this.slots.acquire(
        (position) => emit({ type: "turn.queued", data: { position } }),
        controller.signal,
      );
    } catch {
      return this.finishTurn(session, turnId, { ...STOPPED, ...(controller.signal.reason as object) }, emit);
    }

    this.store.turns.update(turnId, { status: "running", startedAt: this.now().toISOString() });
    const scope = { session, workspaceDir: this.workspaceDir(sessionId), turnId };
    const gate = this.approvals.gateFor(sessionId, turnId, controller.signal);
    try {
      const connectionTools = await this.connectionTools(agent, controller.signal);
      const end = await executeTurn({
        turnId,
        message: start.message,
        resume: start.resume,
        gate,
        commit: resultCommitter(agent, toolContextFor(this.services, agent, scope, undefined, controller.signal)),
        system: withSection(buildSystemPrompt(agent, scope.workspaceDir), recallSection(this.store, agent, session)),
        history: history ?? [],
        tools: toolsForTurn(this.services, agent, emit, gate, connectionTools),
        botVersion: agent.version,
        resolveModels: () => this.options.resolveModels(agent.config, agent.name),
        isModelUnavailable: this.options.isModelUnavailable,
        toolContext: (toolCallId, signal) => toolContextFor(this.services, agent, scope, toolCallId, signal),
        emit,
        signal: controller.signal,
      });
      this.liveSession(sessionId).history =
        end.status === "completed" && start.message !== undefined ? [...(history ?? []), ...end.messages] : undefined;
      return this.finishTurn(session, turnId, end);
    } finally {
      release();
    }
  }

  /**
   * MCP tools, opening clients on first use; agents without model
   * connections skip the await. A stop does not wait for a slow server: the
   * turn goes on without the tools and ends as stopped.
   */
  private async connectionTools(agent: ResolvedAgent, signal: AbortSignal): Promise<LoadedTool[]> {
    const mcp = this.options.mcp;
    if (!mcp || !McpConnections.offersTools(agent) || signal.aborted) return [];
    const stopped = new Promise<LoadedTool[]>((resolve) => signal.addEventListener("abort", () => resolve([]), { once: true }));
    return Promise.race([mcp.modelTools(agent), stopped]);
  }

  /**
   * Records how a turn ended and what the session does next. `emitFailure`
   * is for turns that never reached the loop (which records its own end).
   */
  private finishTurn(session: SessionRow, turnId: string, end: TurnEnd, emitFailure?: (draft: EventDraft) => void): TurnEnd {
    const at = this.now().toISOString();
    if (end.status !== "completed" && emitFailure) {
      emitFailure({ type: "turn.failed", data: { status: end.status, code: end.code, message: end.message } });
    }
    const live = this.live.get(session.id);
    if (end.status === "completed") {
      const known = live?.session ?? this.store.sessions.get(session.id);
      const usage = known ? addUsage(known.usage, end.usage) : end.usage;
      this.store.turns.update(turnId, { status: "completed", endedAt: at, usage: end.usage });
      if (session.mode === "task") {
        this.append(session.id, [{ type: "session.completed", data: { result: end.text } }]);
      } else {
        this.append(session.id, [{ type: "session.waiting", data: {} }]);
      }
      const updated = this.store.sessions.update(session.id, { status: session.mode === "task" ? "completed" : "waiting", usage });
      if (live && updated) live.session = updated;
      this.remember(session, turnId, end.text);
      return end;
    }
    this.store.turns.update(turnId, { status: end.status, endedAt: at });
    if (session.mode === "task") {
      this.append(session.id, [{ type: "session.failed", data: { code: end.code, message: end.message } }]);
      this.store.sessions.update(session.id, { status: "failed" });
    } else {
      this.append(session.id, [{ type: "session.waiting", data: {} }]);
      this.store.sessions.update(session.id, { status: "waiting" });
    }
    return end;
  }

  /** `memoryHook`: a note of the exchange; a failure to store it never fails the turn. */
  private remember(session: SessionRow, turnId: string, reply: string): void {
    try {
      rememberTurn(this.store, this.journal, this.agent, session, turnId, reply);
    } catch (error) {
      this.options.logger.warn(`Memory: could not store a note for turn ${turnId}: ${messageOf(error)}`);
    }
  }

  private historyBefore(sessionId: string, index: number): ModelMessage[] {
    const events = this.store.events.list(sessionId, { fromIndex: 0 }) as AnyBdkEvent[];
    return historyFromEvents(events.filter((event) => event.index < index));
  }

  /** Skills, seed files and agent-tool scripts, once per session and bot version. */
  private async prepareWorkspace(sessionId: string, agent: ResolvedAgent): Promise<void> {
    const live = this.liveSession(sessionId);
    if (live.preparedFor === agent.version) return;
    const agentTools = agent.tools.filter((tool) => tool.execution === "agent");
    if (live.preparedFor === undefined && agent.skills.length === 0 && !agent.sandboxDir && agentTools.length === 0) {
      // Nothing to lay out: the directory is the whole workspace (made off the main thread).
      const dir = this.workspaceDir(sessionId, { create: false });
      await mkdir(dir, { recursive: true });
      this.createdDirs.add(dir);
      live.preparedFor = agent.version;
      return;
    }
    await prepareWorkspace({
      dir: this.workspaceDir(sessionId),
      rootDir: agent.rootDir,
      agentName: agent.name,
      skills: agent.skills,
      seedDir: agent.sandboxDir,
      agentTools,
    });
    live.preparedFor = agent.version;
  }

  /**
   * The directory a session works in: the one its channel chose when it
   * started (a PR worktree), else `local.workspaceDir` (one directory for
   * every session), else `<local.cwd>/<sessionId>`, else
   * `<stateRoot>/workspaces/<sessionId>`. Relative paths are from the project root.
   */
  private workspaceDir(sessionId: string, options: { create?: boolean } = {}): string {
    const { rootDir, config } = this.agent;
    const local = config.local;
    // The direct-calls workspace belongs to no session: nothing to look up.
    const chosen =
      sessionId === DIRECT_CALLS_WORKSPACE ? undefined : (this.live.get(sessionId)?.session ?? this.store.sessions.get(sessionId))?.workspaceDir;
    const dir =
      chosen ??
      (local?.workspaceDir
        ? path.resolve(rootDir, local.workspaceDir)
        : path.join(local?.cwd ? path.resolve(rootDir, local.cwd) : path.join(this.options.stateRoot, "workspaces"), sessionId));
    if (options.create !== false && !this.createdDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.createdDirs.add(dir);
    }
    return dir;
  }

  private liveSession(sessionId: string): LiveSession {
    let live = this.live.get(sessionId);
    if (!live) {
      live = { tail: Promise.resolve(), coalesced: [] };
      this.live.set(sessionId, live);
    }
    return live;
  }

  private requireSession(sessionId: string, principal: Principal): SessionRow {
    const session = this.store.sessions.get(sessionId);
    if (!session) throw new BdkError("not_found", `No session ${sessionId}.`);
    if (!samePrincipal(session.principal, principal)) {
      throw new BdkError("forbidden", `Session ${sessionId} belongs to another principal.`);
    }
    return session;
  }
}

function* mapIterable<A, B>(source: Iterable<A>, map: (item: A) => B): Generator<B> {
  for (const item of source) yield map(item);
}

function withSection(prompt: string, section: string | undefined): string {
  return section ? `${prompt}\n\n${section}` : prompt;
}

function titleFrom(message: string): string {
  const line = message.trim().split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}
