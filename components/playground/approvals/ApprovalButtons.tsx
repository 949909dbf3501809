"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage, isApiError } from "../../api/errors.ts";
import { Button } from "../../ui/Button.tsx";
import { CheckIcon, XIcon } from "../../ui/icons.tsx";
import { inputClass } from "../../ui/styles.ts";
import { cx } from "../../ui/cx.ts";
import { useApi } from "../api-context.tsx";

/** Approve / Deny a parked tool call, with an optional reason. */
export function ApprovalButtons({ sessionId, approvalId, compact = false }: { sessionId: string; approvalId: string; compact?: boolean }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState("");
  const resolve = useMutation({
    mutationFn: (approved: boolean) => api.resolveApproval(sessionId, approvalId, approved, reason.trim() || undefined),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["approvals"] }),
  });

  if (resolve.isSuccess) {
    return <p className="text-xs text-fg-muted">{resolve.variables ? "Approved" : "Denied"}, waiting for the agent…</p>;
  }
  return (
    <div className="space-y-1.5">
      <div className={cx("flex flex-wrap items-center gap-2", compact && "text-xs")}>
        <input
          className={cx(inputClass, "h-8 min-w-0 flex-1 basis-full sm:basis-40")}
          placeholder="Reason (optional)"
          aria-label="Reason"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
        <Button size="sm" variant="success" disabled={resolve.isPending} onClick={() => resolve.mutate(true)}>
          <CheckIcon className="size-3.5" /> Approve
        </Button>
        <Button size="sm" variant="danger" disabled={resolve.isPending} onClick={() => resolve.mutate(false)}>
          <XIcon className="size-3.5" /> Deny
        </Button>
      </div>
      {resolve.isError ? (
        <p role="alert" className="text-xs text-tone-danger">
          {isApiError(resolve.error, 409) ? "Already resolved." : errorMessage(resolve.error)}
        </p>
      ) : null}
    </div>
  );
}
