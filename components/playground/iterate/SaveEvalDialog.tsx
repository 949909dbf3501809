"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage, isApiError } from "../../api/errors.ts";
import { Button } from "../../ui/Button.tsx";
import { Modal } from "../../ui/Modal.tsx";
import { inputClass, mutedText } from "../../ui/styles.ts";
import { useApi } from "../api-context.tsx";
import { useNavigation } from "../navigation.tsx";

/** A case id from a title: `Refund order A-1` → `refund-order-a-1`. */
export function caseNameFrom(title: string | undefined): string {
  const slug = (title ?? "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  return slug || "saved-session";
}

/** Save as eval case (`bdk dev`): writes `evals/<name>.eval.ts`; an existing file is replaced only after asking. */
export function SaveEvalDialog({ sessionId, title, onClose }: { sessionId: string; title?: string; onClose: () => void }) {
  const api = useApi();
  const nav = useNavigation();
  const queryClient = useQueryClient();
  const [name, setName] = useState(caseNameFrom(title));
  const [exists, setExists] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save(overwrite: boolean) {
    setBusy(true);
    setProblem(null);
    try {
      const result = await api.saveEvalCase(sessionId, name, overwrite);
      setSaved(result.file);
      setExists(null);
      void queryClient.invalidateQueries({ queryKey: ["evals"] });
    } catch (error) {
      if (isApiError(error, 409)) setExists(errorMessage(error));
      else if (isApiError(error, 404) && !errorMessage(error).includes(sessionId)) setProblem("Saving eval cases needs bdk dev (or bdk serve --dev).");
      else setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      title="Save as eval case"
      onClose={onClose}
      footer={
        saved ? (
          <>
            <Button variant="ghost" onClick={onClose}>
              Close
            </Button>
            <Button variant="primary" onClick={() => (onClose(), nav.setTab("evals"))}>
              Open Evals
            </Button>
          </>
        ) : (
          <>
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            {exists ? (
              <Button variant="danger" disabled={busy} onClick={() => void save(true)}>
                Overwrite
              </Button>
            ) : (
              <Button variant="primary" disabled={busy || !name.trim()} onClick={() => void save(false)} data-testid="save-eval-submit">
                Save
              </Button>
            )}
          </>
        )
      }
    >
      <div className="space-y-3 text-sm" data-testid="save-eval-dialog">
        {saved ? (
          <p role="status">
            Saved <code className="font-mono">{saved}</code>. Edit its assertions in your editor; the Evals tab lists it already.
          </p>
        ) : (
          <>
            <p className={mutedText}>The messages of this session are replayed, and the tool calls it made become assertions you can edit.</p>
            <label className="block space-y-1">
              <span className="text-xs font-medium">Name (evals/&lt;name&gt;.eval.ts)</span>
              <input
                className={inputClass}
                value={name}
                onChange={(event) => (setName(event.target.value), setExists(null))}
                data-testid="save-eval-name"
              />
            </label>
            {exists ? <p className="text-xs text-tone-warning">{exists}</p> : null}
            {problem ? (
              <p role="alert" className="text-xs text-tone-danger">
                {problem}
              </p>
            ) : null}
          </>
        )}
      </div>
    </Modal>
  );
}
