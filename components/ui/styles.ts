/** Shared class strings for native form controls (no component needed around them). */
export const inputClass =
  "h-9 w-full rounded-md border border-zinc-300 bg-white px-3 text-sm text-zinc-900 placeholder:text-zinc-400 " +
  "focus-visible:border-indigo-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/30 " +
  "dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-500";

export const textareaClass =
  "w-full rounded-md border border-zinc-300 bg-white px-3 py-2 font-mono text-xs leading-relaxed text-zinc-900 " +
  "focus-visible:border-indigo-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/30 " +
  "dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";

export const cardClass = "rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900/60";

export const mutedText = "text-zinc-500 dark:text-zinc-400";
