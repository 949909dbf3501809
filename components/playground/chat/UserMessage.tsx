import type { ReactNode } from "react";
import { cx } from "../../ui/cx.ts";

/** `actions`: buttons under the bubble (fork, edit and resend). */
export function UserMessage({ text, files, pending = false, actions }: { text: string; files?: string[]; pending?: boolean; actions?: ReactNode }) {
  return (
    <div className="group flex flex-col items-end gap-0.5" data-testid="user-message">
      <div
        className={cx(
          "max-w-[85%] rounded-2xl rounded-br-sm bg-accent px-3.5 py-2 text-sm leading-relaxed whitespace-pre-wrap break-words text-fg-on-accent shadow-sm",
          pending && "opacity-70",
        )}
      >
        {text}
        {files?.length ? <p className="mt-1 text-xs opacity-80">Attached: {files.join(", ")}</p> : null}
      </div>
      {actions ? <div className="flex gap-1 opacity-70 group-hover:opacity-100 focus-within:opacity-100">{actions}</div> : null}
    </div>
  );
}
