/**
 * Where eval cases send their messages: the agent in this process
 * (`localTarget`) or a running server through its HTTP API (the CLI builds
 * that one for `--url`). The `t` API only talks to this interface.
 */
import type { OpenedAgent } from "../host/open-agent.ts";
import type { AnyBdkEvent, Principal } from "../protocol/events.ts";

export interface EvalSendInput {
  message: string;
  /** Continue this session; absent: start a new eval session. */
  sessionId?: string;
  title?: string;
  dryRun: boolean;
  workspaceFiles?: Record<string, string>;
}

export interface EvalTarget {
  /** Starts (or continues) an eval session; resolves once the turn is accepted. */
  send(input: EvalSendInput): Promise<{ sessionId: string; turnId: string }>;
  /** Delivers the session's events from `fromIndex` in order until `onEvent` returns true. */
  follow(sessionId: string, fromIndex: number, onEvent: (event: AnyBdkEvent) => boolean): Promise<void>;
  resolveApproval(sessionId: string, approvalId: string, decision: { approved: boolean; reason?: string }): Promise<void>;
  /** Ends the session's running or parked turn (timeouts, cases that never approved). */
  stop(sessionId: string): Promise<void>;
}

export const EVAL_CHANNEL = "eval";
export const EVAL_PURPOSE = "eval";

/** The in-process target: eval sessions of `opened`'s runtime, owned by `principal`. */
export function localTarget(opened: Pick<OpenedAgent, "runtime">, principal: Principal): EvalTarget {
  const { runtime } = opened;
  return {
    async send({ message, sessionId, title, dryRun, workspaceFiles }) {
      const handle = await (sessionId
        ? runtime.followUp(sessionId, { message, principal, workspaceFiles })
        : runtime.startSession({ message, principal, title, purpose: EVAL_PURPOSE, dryRun, channel: EVAL_CHANNEL, workspaceFiles }));
      return { sessionId: handle.sessionId, turnId: handle.turnId };
    },
    follow(sessionId, fromIndex, onEvent) {
      return runtime.reader.followUntil(sessionId, principal, fromIndex, onEvent);
    },
    async resolveApproval(sessionId, approvalId, decision) {
      await runtime.inbox.resolveApproval(sessionId, approvalId, decision, principal);
    },
    async stop(sessionId) {
      await runtime.stop(sessionId, principal);
    },
  };
}
