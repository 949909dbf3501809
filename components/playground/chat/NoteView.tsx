import { Button } from "../../ui/Button.tsx";
import { cx } from "../../ui/cx.ts";
import { commandUsage } from "./slash-commands.ts";
import type { ChatNote } from "./notes.ts";

const tones: Record<ChatNote["tone"], string> = {
  info: "border-line bg-surface-soft",
  success: "border-tone-success-line bg-tone-success-faint",
  error: "border-tone-danger-line bg-tone-danger-soft text-tone-danger",
};

export function NoteView({ note, onOpenSession }: { note: ChatNote; onOpenSession: (id: string) => void }) {
  return (
    <div data-testid="chat-note" className={cx("rounded-lg border px-3 py-2 text-sm", tones[note.tone])}>
      <p className="font-medium">{note.title}</p>
      {note.body ? <p className="mt-1 font-mono text-xs whitespace-pre-wrap break-words opacity-80">{note.body}</p> : null}
      {note.commands ? (
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-xs">
          {note.commands.map((command) => (
            <div key={command.name} className="contents">
              <dt className="font-mono font-medium text-accent-fg">{commandUsage(command)}</dt>
              <dd className="text-fg-muted">{command.description}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {note.openSessionId ? (
        <Button size="sm" variant="secondary" className="mt-2" onClick={() => onOpenSession(note.openSessionId!)}>
          Open session
        </Button>
      ) : null}
    </div>
  );
}
