"use client";
import { useId, useState } from "react";
import { BrainIcon, ChevronIcon } from "../../ui/icons.tsx";
import { cx } from "../../ui/cx.ts";

/** The model's reasoning, collapsed by default; a pulse shows it is still streaming. */
export function ReasoningBlock({ text, done }: { text: string; done: boolean }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const preview = text.trim().split("\n")[0] ?? "";
  return (
    <div className="text-sm">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
        className="group flex max-w-full items-center gap-1.5 rounded px-1 py-0.5 text-fg-muted hover:text-fg"
      >
        <ChevronIcon className={cx("size-3.5 shrink-0 transition-transform", open && "rotate-90")} />
        <BrainIcon className="size-3.5 shrink-0" />
        <span className={cx("font-medium", !done && "animate-soft-pulse")}>{done ? "Reasoning" : "Thinking…"}</span>
        {!open && preview ? <span className="truncate text-xs opacity-70">{preview}</span> : null}
      </button>
      {open ? (
        <div id={id} className="mt-1 ml-2 border-l-2 border-tone-neutral-line pl-3 text-xs leading-relaxed whitespace-pre-wrap text-fg-muted">
          {text}
        </div>
      ) : null}
    </div>
  );
}
