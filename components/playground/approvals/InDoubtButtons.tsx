"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage, isApiError } from "../../api/errors.ts";
import { Button } from "../../ui/Button.tsx";
import { CheckIcon, XIcon } from "../../ui/icons.tsx";
import { inputClass } from "../../ui/styles.ts";
import type { InDoubtResolution } from "../../../server/protocol/events.ts";
import { useApi } from "../api-context.tsx";

/** Clears a write call in doubt once someone checked whether it took effect, with an optional note. */
export function InDoubtButtons({ sessionId, toolCallId }: { sessionId: string; toolCallId: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [note, setNote] = useState("");
  const resolve = useMutation({
    mutationFn: (resolution: InDoubtResolution) => api.resolveInDoubt(sessionId, toolCallId, resolution, note.trim() || undefined),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["approvals"] }),
  });

  if (resolve.isSuccess) {
    return <p className="text-xs text-fg-muted">Marked {resolve.variables === "done" ? "as done" : "as not done"}.</p>;
  }
  return (
    <div className="space-y-1.5">
      <div className="flex flex-wrap items-center gap-2">
        <input
          className={`${inputClass} h-8 min-w-0 flex-1 basis-full sm:basis-40`}
          placeholder="What you checked (optional)"
          aria-label="Note"
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
        <Button size="sm" variant="success" disabled={resolve.isPending} onClick={() => resolve.mutate("done")}>
          <CheckIcon className="size-3.5" /> It took effect
        </Button>
        <Button size="sm" variant="secondary" disabled={resolve.isPending} onClick={() => resolve.mutate("not_done")}>
          <XIcon className="size-3.5" /> It did not
        </Button>
      </div>
      {resolve.isError ? (
        <p role="alert" className="text-xs text-tone-danger">
          {isApiError(resolve.error, 404) ? "Already cleared." : errorMessage(resolve.error)}
        </p>
      ) : null}
    </div>
  );
}
