import type { AgentIndexEntry } from "../api/types.ts";
import { ChevronIcon } from "../ui/icons.tsx";

export function AgentCard({ agent }: { agent: AgentIndexEntry }) {
  const model = typeof agent.model === "string" ? agent.model : agent.model?.id;
  const href = agent.playgroundUrl || `/${agent.slug}/playground`;
  const title = agent.displayName ?? agent.name ?? agent.slug;
  return (
    <li>
      <a
        href={href}
        className="group flex h-full flex-col gap-2 rounded-xl border border-line bg-surface-card p-4 shadow-sm transition hover:border-accent-line hover:shadow-md"
      >
        <span className="flex items-center gap-2">
          <span className="flex size-8 items-center justify-center rounded-lg bg-tone-accent-soft text-sm font-bold text-accent-fg">
            {title.slice(0, 1).toUpperCase()}
          </span>
          <span className="min-w-0 flex-1">
            <span className="block truncate font-semibold">{title}</span>
            <span className="block truncate font-mono text-xs text-fg-muted">{href}</span>
          </span>
          <ChevronIcon className="size-4 text-fg-dim group-hover:text-accent-bright" />
        </span>
        {agent.description ? <span className="text-sm text-fg-muted">{agent.description}</span> : null}
        {model ? <span className="font-mono text-xs text-fg-muted">{model}</span> : null}
      </a>
    </li>
  );
}
