/** Shared class strings for native form controls (no component needed around them). */
const focusRing = "focus-visible:border-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/30";

export const inputClass = `h-9 w-full rounded-control border border-line-strong bg-surface-raised px-3 text-sm text-fg placeholder:text-fg-faint ${focusRing}`;

export const textareaClass = `w-full rounded-control border border-line-strong bg-surface-raised px-3 py-2 font-mono text-xs leading-relaxed text-fg ${focusRing}`;

export const cardClass = "rounded-card border border-line bg-surface-raised";

export const mutedText = "text-fg-muted";
