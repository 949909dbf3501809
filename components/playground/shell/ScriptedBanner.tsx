"use client";
import { useEffect, useState } from "react";
import { AlertIcon, XIcon } from "../../ui/icons.tsx";
import { readBannerDismissed, writeBannerDismissed } from "../session/storage.ts";

const code = "rounded bg-tone-warning-raised px-1 font-mono";

/** Shown while turns run on the offline `scripted` model, with how to switch to a real one; dismissed for this browser session. */
export function ScriptedBanner({ configured }: { configured?: string }) {
  const [dismissed, setDismissed] = useState(false);
  // Read after hydration: the server render cannot know what this tab dismissed.
  useEffect(() => setDismissed(readBannerDismissed()), []);
  if (dismissed) return null;
  return (
    <div role="status" data-testid="scripted-banner" className="border-t border-tone-warning-divider bg-tone-warning-soft px-4 py-1.5 text-xs text-tone-warning">
      <p className="flex items-start gap-2">
        <AlertIcon className="mt-0.5 size-3.5 shrink-0" />
        <span>
          <strong className="font-semibold">Offline scripted model</strong>
          <span className="hidden sm:inline">: replies are deterministic stand-ins{configured && configured !== "scripted" ? ` (configured: ${configured})` : ""}</span>. For a real model set{" "}
          <code className={code}>XAI_API_KEY</code> or choose one with <code className={code}>BDK_MODEL</code>
          <span className="hidden sm:inline">
            {" "}
            (e.g. <code className="font-mono">openai/gpt-5</code> with <code className="font-mono">OPENAI_API_KEY</code>)
          </span>
          , then restart the server.
        </span>
        <button
          type="button"
          aria-label="Dismiss the offline model notice"
          title="Dismiss (for this browser session)"
          onClick={() => {
            writeBannerDismissed();
            setDismissed(true);
          }}
          className="ml-auto shrink-0 rounded p-0.5 hover:bg-tone-warning-raised"
        >
          <XIcon className="size-3.5" />
        </button>
      </p>
    </div>
  );
}
