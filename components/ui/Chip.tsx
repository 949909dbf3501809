import type { ReactNode } from "react";
import { cx } from "./cx.ts";

/** A toggle pill for filters (`aria-pressed`). */
export function Chip({ pressed, onToggle, children, title }: { pressed: boolean; onToggle: () => void; children: ReactNode; title?: string }) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      title={title}
      onClick={onToggle}
      className={cx(
        "inline-flex h-7 items-center gap-1.5 rounded-full border px-2.5 text-xs font-medium whitespace-nowrap transition-colors",
        pressed
          ? "border-accent-selected-line bg-tone-accent-soft text-accent-selected-fg"
          : "border-line-strong text-fg-soft hover:bg-surface-hover",
      )}
    >
      {children}
    </button>
  );
}
