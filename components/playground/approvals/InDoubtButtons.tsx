"use client";
import { CheckIcon, XIcon } from "../../ui/icons.tsx";
import type { InDoubtResolution } from "../../../server/protocol/events.ts";
import { useApi } from "../api-context.tsx";
import { type Decision, DecisionButtons } from "./DecisionButtons.tsx";

const CHOICES: readonly Decision<InDoubtResolution>[] = [
  { value: "done", variant: "success", label: (<><CheckIcon className="size-3.5" /> It took effect</>) },
  { value: "not_done", variant: "secondary", label: (<><XIcon className="size-3.5" /> It did not</>) },
];

/** Clears a write call in doubt once someone checked whether it took effect, with an optional note. */
export function InDoubtButtons({ sessionId, toolCallId }: { sessionId: string; toolCallId: string }) {
  const api = useApi();
  return (
    <DecisionButtons
      choices={CHOICES}
      submit={(resolution, note) => api.resolveInDoubt(sessionId, toolCallId, resolution, note)}
      noteLabel="Note"
      notePlaceholder="What you checked (optional)"
      done={(resolution) => `Marked ${resolution === "done" ? "as done" : "as not done"}.`}
      taken={{ status: 404, message: "Already cleared." }}
    />
  );
}
