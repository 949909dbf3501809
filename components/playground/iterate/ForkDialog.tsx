"use client";
import { useState } from "react";
import { errorMessage } from "../../api/errors.ts";
import { Button } from "../../ui/Button.tsx";
import { Modal } from "../../ui/Modal.tsx";
import { inputClass, mutedText, textareaClass } from "../../ui/styles.ts";
import { useApi } from "../api-context.tsx";
import { useNavigation } from "../navigation.tsx";
import { writeContinuationToken } from "../session/storage.ts";
import { type CallStubDraft, type ForkDraft, forkRequest, type StubDraft } from "./fork-form.ts";

export interface ForkTarget {
  sessionId: string;
  cut: ForkDraft["cut"];
  /** The message at the cut, or of the turn an event cut picks up. */
  message: string;
  /**
   * "edit": the message field is the point (edit and resend); "fork": re-run it with overrides;
   * "event": cut right after an event inside a turn (`cut.afterIndex`), the fork picks that turn up.
   */
  mode: "fork" | "edit" | "event";
  /** The event an "event" cut is after, as the dialog names it. */
  eventType?: string;
  stubs: Record<string, StubDraft>;
  /** The turn's calls one by one ("Stub this result" on a call card enables its own). */
  callStubs: CallStubDraft[];
}

/** Fork from here / edit and resend: a new session cut at this message, with what to run differently. */
export function ForkDialog({ target, onClose }: { target: ForkTarget; onClose: () => void }) {
  const api = useApi();
  const nav = useNavigation();
  const [draft, setDraft] = useState<ForkDraft>({
    cut: target.cut,
    original: target.message,
    message: target.message,
    model: "",
    params: "",
    instructions: "",
    stubs: target.stubs,
    callStubs: target.callStubs,
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<ForkDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const setStub = (name: string, patch: Partial<StubDraft>) =>
    setDraft((current) => ({ ...current, stubs: { ...current.stubs, [name]: { ...current.stubs[name], ...patch } } }));
  const setCallStub = (position: number, patch: Partial<StubDraft>) =>
    setDraft((current) => ({ ...current, callStubs: current.callStubs.map((stub, at) => (at === position ? { ...stub, ...patch } : stub)) }));

  async function submit() {
    const result = forkRequest(draft);
    if (!result.ok) return setProblem(result.problem);
    setBusy(true);
    setProblem(null);
    try {
      const fork = await api.fork(target.sessionId, result.request);
      writeContinuationToken(api.base, fork.sessionId, fork.continuationToken);
      onClose();
      nav.openSession(fork.sessionId);
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  const stubNames = Object.keys(draft.stubs);
  return (
    <Modal
      title={target.mode === "edit" ? "Edit and resend on a fork" : target.mode === "event" ? "Fork from this event" : "Fork from here"}
      onClose={onClose}
      footer={
        <>
          {problem ? (
            <p role="alert" className="mr-auto text-xs text-tone-danger">
              {problem}
            </p>
          ) : null}
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" disabled={busy} onClick={() => void submit()} data-testid="fork-submit">
            {target.mode === "edit" ? "Send on a fork" : "Fork and run"}
          </Button>
        </>
      }
    >
      <div className="space-y-4 text-sm" data-testid="fork-dialog">
        {"afterIndex" in target.cut ? (
          <p className={mutedText} data-testid="fork-event-cut">
            A new session with this session&apos;s events up to <span className="font-mono">#{target.cut.afterIndex}</span>{" "}
            <span className="font-mono">{target.eventType}</span>, inside the turn answering “{target.message}”. The fork picks that turn up from there: tool calls
            asked for and not yet answered run (a stub below answers instead), then the model goes on. This session stays as it is; everything left empty runs as
            the agent is loaded.
          </p>
        ) : (
          <>
            <p className={mutedText}>
              A new session with this conversation up to the message below; this session stays as it is. Everything left empty runs as the agent is loaded.
            </p>
            <label className="block space-y-1">
              <span className="text-xs font-medium">Message</span>
              <textarea className={textareaClass} rows={3} value={draft.message} onChange={(event) => set({ message: event.target.value })} data-testid="fork-message" />
            </label>
          </>
        )}
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="block space-y-1">
            <span className="text-xs font-medium">Model</span>
            <input className={inputClass} placeholder="the agent's model" value={draft.model} onChange={(event) => set({ model: event.target.value })} />
          </label>
          <label className="block space-y-1">
            <span className="text-xs font-medium">Params (id=value per line)</span>
            <textarea className={textareaClass} rows={2} placeholder="effort=high" value={draft.params} onChange={(event) => set({ params: event.target.value })} />
          </label>
        </div>
        <label className="block space-y-1">
          <span className="text-xs font-medium">Instructions (the whole system prompt)</span>
          <textarea
            className={textareaClass}
            rows={4}
            placeholder="the prompt composed from the agent's instructions, skills and memory"
            value={draft.instructions}
            onChange={(event) => set({ instructions: event.target.value })}
            data-testid="fork-instructions"
          />
        </label>
        {stubNames.length ? (
          <fieldset className="space-y-2">
            <legend className="text-xs font-medium">Tool results (a stubbed tool answers this instead of running)</legend>
            {stubNames.map((name) => (
              <StubEditor key={name} label={name} subject={name} stub={draft.stubs[name]} onChange={(patch) => setStub(name, patch)} />
            ))}
          </fieldset>
        ) : null}
        {draft.callStubs.length ? (
          <fieldset className="space-y-2" data-testid="fork-call-stubs">
            <legend className="text-xs font-medium">Single calls (only this call gets the result; the tool&apos;s other calls run)</legend>
            {draft.callStubs.map((stub, position) => (
              <StubEditor
                key={stub.toolCallId}
                label={`${stub.name} · call ${stub.call}`}
                subject={`${stub.name} call ${stub.call}`}
                stub={stub}
                onChange={(patch) => setCallStub(position, patch)}
              />
            ))}
          </fieldset>
        ) : null}
      </div>
    </Modal>
  );
}

/** A stub's switch, error flag and result text; `subject` names it for the result field's label. */
function StubEditor({ label, subject, stub, onChange }: { label: string; subject: string; stub: StubDraft; onChange: (patch: Partial<StubDraft>) => void }) {
  return (
    <div className="space-y-1">
      <div className="flex items-center gap-2 text-xs">
        <label className="flex items-center gap-2">
          <input type="checkbox" className="size-4 accent-accent" checked={stub.enabled} onChange={(event) => onChange({ enabled: event.target.checked })} />
          <span className="font-mono">{label}</span>
        </label>
        {stub.enabled ? (
          <label className="ml-auto flex items-center gap-1">
            <input type="checkbox" className="size-3.5" checked={stub.isError} onChange={(event) => onChange({ isError: event.target.checked })} /> as an error
          </label>
        ) : null}
      </div>
      {stub.enabled ? (
        <textarea className={textareaClass} rows={4} aria-label={`Stubbed result of ${subject}`} value={stub.output} onChange={(event) => onChange({ output: event.target.value })} />
      ) : null}
    </div>
  );
}
