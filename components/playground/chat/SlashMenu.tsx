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
      className="absolute inset-x-0 bottom-full mb-2 max-h-64 overflow-auto rounded-lg border border-zinc-200 bg-surface-raised p-1 shadow-lg dark:border-zinc-700"
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
            index === active ? "bg-indigo-50 text-indigo-900 dark:bg-indigo-500/20 dark:text-indigo-100" : "hover:bg-zinc-50 dark:hover:bg-zinc-800",
          )}
        >
          <span className="shrink-0 font-mono font-medium">{commandUsage(command)}</span>
          <span className="truncate text-xs text-fg-muted">{command.description}</span>
        </li>
      ))}
    </ul>
  );
}
