"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "../../ui/Button.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { Section } from "../../ui/Section.tsx";
import { cardClass } from "../../ui/styles.ts";
import { useApi } from "../api-context.tsx";

/** What `memoryHook` remembers of the caller's conversations, with forget buttons. */
export function MemorySection() {
  const api = useApi();
  const queryClient = useQueryClient();
  const queryKey = ["memory", api.base];
  const notes = useQuery({ queryKey, queryFn: ({ signal }) => api.memory(signal), refetchInterval: 5000 });
  const forget = useMutation({
    mutationFn: (noteId?: string) => api.forgetMemory(noteId),
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
  const list = notes.data?.notes ?? [];
  return (
    <Section
      id="agent-memory"
      title="Memory"
      count={list.length}
      actions={
        list.length > 0 ? (
          <Button size="sm" variant="ghost" disabled={forget.isPending} onClick={() => forget.mutate(undefined)}>
            Forget all
          </Button>
        ) : null
      }
    >
      {notes.error ? <ErrorNotice error={notes.error} /> : null}
      {forget.error ? <ErrorNotice error={forget.error} /> : null}
      {list.length === 0 ? (
        <EmptyState title="Nothing remembered yet" className="py-6" />
      ) : (
        <ul className={`${cardClass} divide-y divide-line`}>
          {list.map((note) => (
            <li key={note.id} className="flex items-start gap-3 px-4 py-2.5 text-sm">
              <div className="min-w-0 flex-1">
                <p className="whitespace-pre-wrap break-words">{note.note}</p>
                <p className="mt-1 text-xs text-fg-muted">
                  {note.principal.type}:{note.principal.id} · {new Date(note.createdAt).toLocaleString()}
                </p>
              </div>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Forget: ${note.note.split("\n")[0]}`}
                disabled={forget.isPending}
                onClick={() => forget.mutate(note.id)}
              >
                Forget
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
