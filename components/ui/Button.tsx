import type { ButtonHTMLAttributes } from "react";
import { cx } from "./cx.ts";

export type Variant = "primary" | "secondary" | "ghost" | "danger" | "success";
type Size = "sm" | "md";

const variants: Record<Variant, string> = {
  primary: "bg-accent text-fg-on-accent hover:bg-accent/85 shadow-sm",
  secondary: "border border-line-strong bg-surface-raised text-fg hover:bg-surface-hover",
  ghost: "text-fg-soft hover:bg-surface-hover hover:text-fg",
  danger: "bg-tone-danger-solid text-fg-on-accent hover:bg-tone-danger-solid/85 shadow-sm",
  success: "bg-tone-success-solid text-fg-on-accent hover:bg-tone-success-solid/85 shadow-sm",
};

const sizes: Record<Size, string> = {
  sm: "h-7 gap-1 px-2.5 text-xs",
  md: "h-9 gap-1.5 px-3.5 text-sm",
};

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: Size;
}

export function Button({ variant = "secondary", size = "md", className, type = "button", ...rest }: ButtonProps) {
  return (
    <button
      type={type}
      className={cx(
        "inline-flex shrink-0 items-center justify-center rounded-control font-medium whitespace-nowrap transition-colors",
        "disabled:pointer-events-none disabled:opacity-50",
        variants[variant],
        sizes[size],
        className,
      )}
      {...rest}
    />
  );
}
