"use client";
import { useEffect, useId, useImperativeHandle, useRef, useState, type KeyboardEvent, type Ref } from "react";
import { Button } from "../../ui/Button.tsx";
import { SendIcon, StopIcon } from "../../ui/icons.tsx";
import { SlashMenu } from "./SlashMenu.tsx";
import type { SlashCommand } from "./slash-commands.ts";

/** What the chat asks of the message box from outside it: a suggestion picked in the welcome. */
export type ComposerHandle = { fill: (text: string) => void };

/**
 * The message box: Enter sends, Shift+Enter breaks the line, `/` opens the
 * command list (arrows to move, Enter or Tab to complete, Escape to close).
 *
 * It owns the draft, so a keystroke re-renders this box alone, never the chat
 * beside it; it grows with its text by CSS (`field-sizing: content`), so a
 * keystroke never forces a layout of the page to measure it.
 */
export function Composer({
  ref,
  commands,
  busy,
  sending,
  disabled,
  hint,
  placeholder,
  onSend,
  onStop,
}: {
  ref?: Ref<ComposerHandle>;
  commands: SlashCommand[];
  busy: boolean;
  sending: boolean;
  disabled: boolean;
  hint?: string;
  placeholder: string;
  /** Resolves to whether the message was taken; if not, the text comes back to the box (unless something new was typed). */
  onSend: (text: string) => Promise<boolean>;
  onStop: () => void;
}) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [draft, setDraft] = useState("");
  const menuId = useId();
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);

  const typingCommand = /^\/[\w-]*$/.test(draft);
  const matches = typingCommand ? commands.filter((command) => command.name.startsWith(draft.slice(1).toLowerCase())) : [];
  const menuOpen = typingCommand && !dismissed && matches.length > 0;

  useEffect(() => setActive(0), [draft]);
  useEffect(() => {
    if (!typingCommand) setDismissed(false);
  }, [typingCommand]);

  function fill(text: string) {
    setDraft(text);
    textarea.current?.focus();
  }
  useImperativeHandle(ref, () => ({ fill }), []);

  function complete(command: SlashCommand) {
    fill(`/${command.name}${command.route ? " " : ""}`);
  }

  async function submit() {
    const text = draft.trim();
    if (!text || disabled || sending) return;
    setDraft("");
    if (!(await onSend(text))) setDraft((current) => current || text);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (menuOpen) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        setActive((index) => (index + (event.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if (event.key === "Tab" || (event.key === "Enter" && !event.shiftKey)) {
        const command = matches[active];
        // Enter on a command that is already typed in full runs it.
        if (!(event.key === "Enter" && draft === `/${command.name}`)) {
          event.preventDefault();
          complete(command);
          return;
        }
      }
      if (event.key === "Escape") {
        event.preventDefault();
        setDismissed(true);
        return;
      }
    }
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  }

  return (
    <form
      className="relative"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {menuOpen ? <SlashMenu id={menuId} commands={matches} active={active} onPick={complete} /> : null}
      <div className="flex items-end gap-2 rounded-xl border border-line-strong bg-surface-raised p-1.5 shadow-sm focus-within:border-accent-bright focus-within:ring-2 focus-within:ring-accent-bright/20">
        <textarea
          ref={textarea}
          rows={1}
          value={draft}
          disabled={disabled}
          placeholder={placeholder}
          aria-label="Message"
          role="combobox"
          aria-expanded={menuOpen}
          aria-controls={menuOpen ? menuId : undefined}
          aria-autocomplete="list"
          aria-activedescendant={menuOpen ? `${menuId}-${active}` : undefined}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          className="field-sizing-content max-h-[200px] min-h-9 flex-1 resize-none bg-transparent px-2 py-1.5 text-sm leading-relaxed outline-none placeholder:text-fg-faint focus-visible:outline-none disabled:opacity-60"
        />
        {busy ? (
          <Button variant="secondary" onClick={onStop} aria-label="Stop the running turn" data-testid="stop-button">
            <StopIcon className="size-3.5" /> Stop
          </Button>
        ) : null}
        <Button type="submit" variant="primary" disabled={disabled || sending || !draft.trim()} aria-label="Send message">
          <SendIcon className="size-4" />
          <span className="hidden sm:inline">Send</span>
        </Button>
      </div>
      {hint ? <p className="mt-1.5 px-1 text-xs text-fg-muted">{hint}</p> : null}
    </form>
  );
}
