"use client";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Button } from "../../ui/Button.tsx";
import { SendIcon, StopIcon } from "../../ui/icons.tsx";
import { SlashMenu } from "./SlashMenu.tsx";
import type { SlashCommand } from "./slash-commands.ts";

/**
 * The message box: Enter sends, Shift+Enter breaks the line, `/` opens the
 * command list (arrows to move, Enter or Tab to complete, Escape to close).
 */
export function Composer({
  commands,
  busy,
  sending,
  disabled,
  hint,
  placeholder,
  draft,
  onDraftChange,
  onSend,
  onStop,
}: {
  commands: SlashCommand[];
  busy: boolean;
  sending: boolean;
  disabled: boolean;
  hint?: string;
  placeholder: string;
  draft: string;
  onDraftChange: (value: string) => void;
  onSend: (text: string) => void;
  onStop: () => void;
}) {
  const textarea = useRef<HTMLTextAreaElement>(null);
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

  useEffect(() => {
    const element = textarea.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${Math.min(element.scrollHeight, 200)}px`;
  }, [draft]);

  function complete(command: SlashCommand) {
    onDraftChange(`/${command.name}${command.route ? " " : ""}`);
    textarea.current?.focus();
  }

  function submit() {
    const text = draft.trim();
    if (!text || disabled || sending) return;
    onSend(text);
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
      submit();
    }
  }

  return (
    <form
      className="relative"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
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
          onChange={(event) => onDraftChange(event.target.value)}
          onKeyDown={onKeyDown}
          className="max-h-[200px] min-h-9 flex-1 resize-none bg-transparent px-2 py-1.5 text-sm leading-relaxed outline-none placeholder:text-fg-faint focus-visible:outline-none disabled:opacity-60"
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
