import type { ReactNode } from "react";
import { cx } from "./cx.ts";

/** The tones of tailwind.config.ts (text, soft fill, ring). */
export type Tone = "neutral" | "accent" | "success" | "warning" | "danger" | "info" | "special";

const tones: Record<Tone, string> = {
  neutral: "bg-tone-neutral-soft text-tone-neutral ring-tone-neutral-line",
  accent: "bg-tone-accent-soft text-tone-accent ring-tone-accent-line",
  success: "bg-tone-success-soft text-tone-success ring-tone-success-line",
  warning: "bg-tone-warning-soft text-tone-warning ring-tone-warning-line",
  danger: "bg-tone-danger-soft text-tone-danger ring-tone-danger-line",
  info: "bg-tone-info-soft text-tone-info ring-tone-info-line",
  special: "bg-tone-special-soft text-tone-special ring-tone-special-line",
};

export function Badge({ tone = "neutral", className, children, title }: { tone?: Tone; className?: string; children: ReactNode; title?: string }) {
  return (
    <span
      title={title}
      className={cx(
        "inline-flex items-center gap-1 rounded-badge px-1.5 py-0.5 text-caption font-medium whitespace-nowrap ring-1 ring-inset",
        tones[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
