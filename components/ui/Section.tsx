import type { ReactNode } from "react";
import { cx } from "./cx.ts";

/** A titled block of a tab page, with an optional count and actions on the right. */
export function Section({
  title,
  count,
  actions,
  children,
  className,
  id,
}: {
  title: string;
  count?: number;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  id?: string;
}) {
  return (
    <section className={cx("space-y-3", className)} aria-labelledby={id}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="flex items-center gap-2 text-sm font-semibold tracking-tight text-fg">
          {title}
          {count !== undefined ? (
            <span className="rounded-full bg-surface-hover px-1.5 text-caption font-medium text-fg-soft">{count}</span>
          ) : null}
        </h2>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}
