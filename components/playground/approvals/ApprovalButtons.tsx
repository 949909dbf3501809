"use client";
import { CheckIcon, XIcon } from "../../ui/icons.tsx";
import { useApi } from "../api-context.tsx";
import { type Decision, DecisionButtons } from "./DecisionButtons.tsx";

const CHOICES: readonly Decision<boolean>[] = [
  { value: true, variant: "success", label: (<><CheckIcon className="size-3.5" /> Approve</>) },
  { value: false, variant: "danger", label: (<><XIcon className="size-3.5" /> Deny</>) },
];

/** Approve / Deny a parked tool call, with an optional reason. */
export function ApprovalButtons({ sessionId, approvalId, compact = false }: { sessionId: string; approvalId: string; compact?: boolean }) {
  const api = useApi();
  return (
    <DecisionButtons
      choices={CHOICES}
      submit={(approved, reason) => api.resolveApproval(sessionId, approvalId, approved, reason)}
      noteLabel="Reason"
      notePlaceholder="Reason (optional)"
      done={(approved) => `${approved ? "Approved" : "Denied"}, waiting for the agent…`}
      taken={{ status: 409, message: "Already resolved." }}
      compact={compact}
    />
  );
}
