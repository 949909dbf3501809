import { cx } from "../../ui/cx.ts";
import { commandUsage, type SlashCommand } from "./slash-commands.ts";

/** The autocomplete list above the composer; the textarea keeps focus and drives it. */
export function SlashMenu({
  id,
  commands,
  active,
  onPick,
}: {
  id: string;
  commands: SlashCommand[];
  active: number;
  onPick: (command: SlashCommand) => void;
}) {
  return (
    <ul
      id={id}
      role="listbox"
      aria-label="Commands"
      className="absolute inset-x-0 bottom-full mb-2 max-h-64 overflow-auto rounded-lg border border-tone-neutral-line bg-surface-raised p-1 shadow-lg"
    >
      {commands.map((command, index) => (
        <li
          key={command.name}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === active}
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(command);
          }}
          className={cx(
            "flex cursor-pointer items-baseline gap-3 rounded-md px-2.5 py-1.5 text-sm",
            index === active ? "bg-accent-active text-accent-active-fg" : "hover:bg-surface-menu-hover",
          )}
        >
          <span className="shrink-0 font-mono font-medium">{commandUsage(command)}</span>
          <span className="truncate text-xs text-fg-muted">{command.description}</span>
        </li>
      ))}
    </ul>
  );
}
