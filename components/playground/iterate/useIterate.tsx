"use client";
import { type ReactNode, useState } from "react";
import { Button } from "../../ui/Button.tsx";
import type { ToolPart, TranscriptItem, UserItem } from "../chat/transcript.ts";
import { ForkDialog, type ForkTarget } from "./ForkDialog.tsx";
import { messageBeforeCall, observedCallStubs, observedCalls } from "./fork-form.ts";
import { RunDiffView } from "./RunDiffView.tsx";
import { SaveEvalDialog } from "./SaveEvalDialog.tsx";

/**
 * The iteration loop's hooks into the Chat tab: Fork / Edit under each user
 * message, Stub this result on each finished tool call, Compare with the parent and Save as eval case in the session bar,
 * and the dialogs they open.
 */
export function useIterate(options: { sessionId: string | null; items: readonly TranscriptItem[]; title?: string; parentId?: string }) {
  const { sessionId, items, title, parentId } = options;
  const [fork, setFork] = useState<ForkTarget | null>(null);
  const [comparing, setComparing] = useState(false);
  const [saving, setSaving] = useState(false);

  const open = (item: UserItem, mode: ForkTarget["mode"], stubbedCallId?: string) =>
    sessionId &&
    setFork({
      sessionId,
      beforeIndex: item.firstIndex,
      message: item.text,
      mode,
      stubs: observedCalls(items, item.firstIndex),
      callStubs: observedCallStubs(items, item.firstIndex, stubbedCallId),
    });

  /** A fork cut at the message this call's turn answers, re-running it with this one call stubbed. */
  const toolActions = (part: ToolPart): ReactNode => {
    const message = sessionId && (part.status === "done" || part.status === "error") && !part.subagent ? messageBeforeCall(items, part.toolCallId) : undefined;
    return message ? (
      <button type="button" className="text-xs font-medium text-accent-fg hover:underline" onClick={() => open(message, "fork", part.toolCallId)} data-testid="stub-call">
        Stub this result
      </button>
    ) : null;
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
