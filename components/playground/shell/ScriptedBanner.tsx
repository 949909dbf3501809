import { AlertIcon } from "../../ui/icons.tsx";

/** Shown while the agent runs on the offline `scripted` model, with how to switch to a real one. */
export function ScriptedBanner({ configured }: { configured?: string }) {
  return (
    <div role="status" data-testid="scripted-banner" className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-xs text-amber-900 dark:border-amber-500/20 dark:bg-amber-500/10 dark:text-amber-200">
      <div className="mx-auto flex max-w-7xl items-start gap-2">
        <AlertIcon className="mt-0.5 size-3.5 shrink-0" />
        <p>
          <strong className="font-semibold">Offline scripted model.</strong> Replies are deterministic stand-ins, not a real model
          {configured && configured !== "scripted" ? ` (configured: ${configured})` : ""}. To use a real one, set{" "}
          <code className="rounded bg-amber-100 px-1 font-mono dark:bg-amber-500/20">XAI_API_KEY</code> (for <code className="font-mono">grok-*</code>) or
          choose another model with <code className="rounded bg-amber-100 px-1 font-mono dark:bg-amber-500/20">BDK_MODEL</code> (e.g.{" "}
          <code className="font-mono">openai/gpt-5</code> with <code className="font-mono">OPENAI_API_KEY</code>), then restart the server.
        </p>
      </div>
    </div>
  );
}
