"use client";
import { useEffect, useState } from "react";
import { Button, type ButtonProps } from "./Button.tsx";
import { copyText } from "./clipboard.ts";
import { CheckIcon, CopyIcon } from "./icons.tsx";

/** Copies `text()` (computed on click, so large payloads are built only when needed). */
export function CopyButton({
  text,
  label = "Copy",
  ...rest
}: { text: () => string; label?: string } & Omit<ButtonProps, "onClick" | "children">) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <Button
      size="sm"
      variant="ghost"
      aria-live="polite"
      onClick={async () => setState((await copyText(text())) ? "copied" : "failed")}
      {...rest}
    >
      {state === "copied" ? <CheckIcon className="size-3.5" /> : <CopyIcon className="size-3.5" />}
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : label}
    </Button>
  );
}
