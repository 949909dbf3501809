import type { ReactNode } from "react";
import { cx } from "./cx.ts";

export function EmptyState({
  title,
  children,
  icon,
  action,
  className,
}: {
  title: string;
  children?: ReactNode;
  icon?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cx(
        "flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed border-zinc-300 px-6 py-10 text-center dark:border-zinc-700",
        className,
      )}
    >
      {icon ? <div className="text-zinc-400 dark:text-zinc-500">{icon}</div> : null}
      <p className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{title}</p>
      {children ? <div className="max-w-md text-sm text-zinc-500 dark:text-zinc-400">{children}</div> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}
