"use client";
import { type ReactNode, useState } from "react";
import type { AnyBdkEvent } from "../../api/types.ts";
import { Button } from "../../ui/Button.tsx";
import type { ToolPart, TranscriptItem, UserItem } from "../chat/transcript.ts";
import { ForkDialog, type ForkTarget } from "./ForkDialog.tsx";
import { eventForkTarget } from "./ForkFromEvent.tsx";
import { messageBeforeCall, observedCallStubs, observedCalls } from "./fork-form.ts";
import { RunDiffView } from "./RunDiffView.tsx";
import { SaveEvalDialog } from "./SaveEvalDialog.tsx";

/**
 * The iteration loop's hooks into the Chat tab: Fork / Edit under each user
 * message, Stub this result on each finished tool call, Compare with the parent and Save as eval case in the session bar,
 * and the dialogs they open.
 */
export function useIterate(options: { sessionId: string | null; items: readonly TranscriptItem[]; events: readonly AnyBdkEvent[]; title?: string; parentId?: string }) {
  const { sessionId, items, events, title, parentId } = options;
  const [fork, setFork] = useState<ForkTarget | null>(null);
  const [comparing, setComparing] = useState(false);
  const [saving, setSaving] = useState(false);

  const open = (item: UserItem, mode: ForkTarget["mode"], stubbedCallId?: string) =>
    sessionId &&
    setFork({
      sessionId,
      cut: { beforeIndex: item.firstIndex },
      message: item.text,
      mode,
      stubs: observedCalls(items, item.firstIndex),
      callStubs: observedCallStubs(items, item.firstIndex, stubbedCallId),
    });

  /**
   * Stub this result: a fork cut at the message this call's turn answers, re-running it with this one call stubbed.
   * Fork from here: a fork cut right after the step asked for this call, running the step's calls again.
   */
  const toolActions = (part: ToolPart): ReactNode => {
    const finished = sessionId && (part.status === "done" || part.status === "error") && !part.subagent;
    const message = finished ? messageBeforeCall(items, part.toolCallId) : undefined;
    const requestIndex = finished ? part.requestIndex : undefined;
    if (!message && requestIndex === undefined) return null;
    return (
      <div className="flex gap-3">
        {requestIndex !== undefined ? (
          <button
            type="button"
            className="text-xs font-medium text-accent-fg hover:underline"
            onClick={() => setFork(eventForkTarget(sessionId!, events, requestIndex))}
            title="A new session cut right after the model asked for this call: the call runs again on the fork (stub it there)"
            data-testid="fork-from-call"
          >
            Fork from here
          </button>
        ) : null}
        {message ? (
          <button type="button" className="text-xs font-medium text-accent-fg hover:underline" onClick={() => open(message, "fork", part.toolCallId)} data-testid="stub-call">
            Stub this result
          </button>
        ) : null}
      </div>
    );
  };

  const messageActions = (item: UserItem): ReactNode =>
    sessionId ? (
      <>
        <Button size="sm" variant="ghost" className="h-6 px-1.5" onClick={() => open(item, "edit")} title="Send an edited message on a fork of this session">
          Edit and resend
        </Button>
        <Button size="sm" variant="ghost" className="h-6 px-1.5" onClick={() => open(item, "fork")} title="Re-run this message on a fork, with another model, prompt or tool results">
          Fork from here
        </Button>
      </>
    ) : null;

  const barActions: ReactNode = sessionId ? (
    <>
      {/* Short labels on a phone, so the bar keeps every action at 390 px; the accessible name stays whole. */}
      {parentId ? (
        <Button size="sm" variant="ghost" onClick={() => setComparing(true)} data-testid="compare-parent" aria-label="Compare with parent">
          <span className="sm:hidden">Compare</span>
          <span className="hidden sm:inline">Compare with parent</span>
        </Button>
      ) : null}
      <Button size="sm" variant="ghost" onClick={() => setSaving(true)} aria-label="Save as eval case">
        <span className="sm:hidden">Eval</span>
        <span className="hidden sm:inline">Save as eval</span>
      </Button>
    </>
  ) : null;

  const dialogs: ReactNode = (
    <>
      {fork ? <ForkDialog target={fork} onClose={() => setFork(null)} /> : null}
      {comparing && parentId && sessionId ? <RunDiffView before={parentId} after={sessionId} onClose={() => setComparing(false)} /> : null}
      {saving && sessionId ? <SaveEvalDialog sessionId={sessionId} title={title} onClose={() => setSaving(false)} /> : null}
    </>
  );
  return { messageActions, toolActions, barActions, dialogs };
}
