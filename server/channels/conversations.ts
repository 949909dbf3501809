/**
 * A channel conversation is the session behind a (channel, continuation
 * token) pair: the first message starts it (chat mode), later ones continue
 * it. Channel sends, `receive`, reminders and the Slack and GitHub packs all
 * come through here.
 */
import { randomBytes } from "node:crypto";
import type { SessionCompletion, SessionHandle } from "../authoring/channels.ts";
import { BdkError } from "../protocol/errors.ts";
import type { AnyBdkEvent, Principal } from "../protocol/events.ts";
import type { SessionRuntime, TurnHandle } from "../sessions/session-runtime.ts";
import type { AsyncRepositories, AsyncStore } from "../store/async-store.ts";
import type { SessionRow } from "../store/types.ts";

export interface ConversationMessage {
  channelId: string;
  message: string;
  /** Continue the session behind this token (or start one that carries it). */
  continuationToken?: string;
  /** Continue this session (reminders bound to a session); wins over the token. */
  sessionId?: string;
  /** Replaces the session's channel state; a new session without one gets `defaultState`. */
  state?: unknown;
  defaultState?: unknown;
  title?: string;
  /** Owner of a session this starts; a continued session keeps its owner. */
  principal: Principal;
  admission?: "preempt" | "coalesce";
  purpose?: string;
  /** The working directory of a session this starts (a PR worktree); a continued session keeps its own. */
  workspaceDir?: string;
  /** Written into the session's workspace before the turn. */
  workspaceFiles?: Record<string, string>;
}

export interface ConversationTurn extends TurnHandle {
  started: boolean;
}

export function newChannelToken(channelId: string): string {
  return `${channelId}:${randomBytes(12).toString("base64url")}`;
}

/**
 * Starts or continues the conversation; the turn is queued, not awaited.
 * Stored when this resolves, in one transaction (or in the caller's, as a
 * savepoint of it).
 */
export function sendToConversation(runtime: SessionRuntime, store: AsyncStore, input: ConversationMessage): Promise<ConversationTurn> {
  return store.transaction(async (tx) => {
    const existing = await findConversation(tx, input);
    if (existing) return { ...(await continueSession(runtime, tx, existing, input)), started: false };
    try {
      // A savepoint of this transaction: losing the race for the token leaves it usable for the follow-up below.
      const turn = await runtime.startSession({
        message: input.message,
        principal: input.principal,
        mode: "chat",
        channel: input.channelId,
        continuationToken: input.continuationToken ?? newChannelToken(input.channelId),
        channelState: input.state ?? input.defaultState,
        title: input.title,
        purpose: input.purpose,
        workspaceDir: input.workspaceDir,
        workspaceFiles: input.workspaceFiles,
      });
      return { ...turn, started: true };
    } catch (error) {
      // Another process started the same conversation first: continue it instead.
      const raced = BdkError.isInstance(error) ? await findConversation(tx, input) : undefined;
      if (!raced) throw error;
      return { ...(await continueSession(runtime, tx, raced, input)), started: false };
    }
  });
}

async function findConversation(store: AsyncRepositories, input: ConversationMessage): Promise<SessionRow | undefined> {
  if (input.sessionId) {
    const session = await store.sessions.get(input.sessionId);
    if (session) return session;
  }
  return input.continuationToken ? store.sessions.findByToken(input.channelId, input.continuationToken) : undefined;
}

async function continueSession(runtime: SessionRuntime, store: AsyncRepositories, session: SessionRow, input: ConversationMessage): Promise<TurnHandle> {
  if (input.state !== undefined) await store.sessions.update(session.id, { channelState: input.state });
  // The token is the capability: whoever holds it speaks in the conversation, which keeps its owner.
  return runtime.followUp(session.id, {
    message: input.message,
    principal: session.principal,
    admission: input.admission,
    workspaceFiles: input.workspaceFiles,
  });
}

/** The handle `send` and `receive` return. */
export function sessionHandle(runtime: SessionRuntime, store: AsyncStore, turn: TurnHandle): SessionHandle {
  return {
    id: turn.sessionId,
    continuationToken: turn.continuationToken,
    async waitForCompletion() {
      await turn.done.catch(() => undefined);
      await runtime.idle(turn.sessionId);
      return lastTurnOutcome(store, turn.sessionId);
    },
  };
}

/** How the session's latest turn ended. */
async function lastTurnOutcome(store: AsyncStore, sessionId: string): Promise<SessionCompletion> {
  const recent = (await store.events.list(sessionId, { fromIndex: -500 })) as AnyBdkEvent[];
  for (let i = recent.length - 1; i >= 0; i--) {
    const event = recent[i];
    if (event.type === "turn.completed") return { status: "finished", result: event.data.result };
    if (event.type === "turn.failed") {
      return { status: event.data.status === "cancelled" ? "cancelled" : "failed", errorMessage: event.data.message };
    }
  }
  return { status: "failed", errorMessage: "The session has no finished turn." };
}
