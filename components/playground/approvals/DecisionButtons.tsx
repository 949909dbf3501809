"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { errorMessage, isApiError } from "../../api/errors.ts";
import { Button, type Variant } from "../../ui/Button.tsx";
import { inputClass } from "../../ui/styles.ts";
import { cx } from "../../ui/cx.ts";

export interface Decision<T> {
  value: T;
  label: ReactNode;
  variant: Variant;
}

/**
 * A person's decision on a pending entry of the approvals inbox (an approval,
 * a call in doubt): an optional note and one button per choice. The inbox is
 * refreshed whatever the answer; `taken` names the status the server answers
 * when someone else decided first.
 */
export function DecisionButtons<T>(props: {
  choices: readonly Decision<T>[];
  submit: (value: T, note: string | undefined) => Promise<unknown>;
  noteLabel: string;
  notePlaceholder: string;
  done: (value: T) => string;
  taken: { status: number; message: string };
  compact?: boolean;
}) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState("");
  const decide = useMutation({
    mutationFn: (value: T) => props.submit(value, note.trim() || undefined),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["approvals"] }),
  });

  if (decide.isSuccess) return <p className="text-xs text-fg-muted">{props.done(decide.variables)}</p>;
  return (
    <div className="space-y-1.5">
      <div className={cx("flex flex-wrap items-center gap-2", props.compact && "text-xs")}>
        <input
          className={cx(inputClass, "h-8 min-w-0 flex-1 basis-full sm:basis-40")}
          placeholder={props.notePlaceholder}
          aria-label={props.noteLabel}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
        {props.choices.map((choice) => (
          <Button key={String(choice.value)} size="sm" variant={choice.variant} disabled={decide.isPending} onClick={() => decide.mutate(choice.value)}>
            {choice.label}
          </Button>
        ))}
      </div>
      {decide.isError ? (
        <p role="alert" className="text-xs text-tone-danger">
          {isApiError(decide.error, props.taken.status) ? props.taken.message : errorMessage(decide.error)}
        </p>
      ) : null}
    </div>
  );
}
