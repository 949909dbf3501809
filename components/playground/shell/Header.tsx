import type { AgentInfo } from "../../api/types.ts";
import { Badge } from "../../ui/Badge.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { describeModel } from "./modelLabel.ts";
import { TokenField } from "./TokenField.tsx";

/** Brand, agent name and model, a link back to the agents index in multi-agent mode, the token field. */
export function Header({ info, loading, base, modelInUse }: { info: AgentInfo | undefined; loading: boolean; base: string; modelInUse?: string }) {
  const model = describeModel(info);
  const slug = base.replace(/^\//, "");
  return (
    <div className="flex items-center gap-3 px-4 py-2.5">
      <a href="/" className="flex shrink-0 items-center gap-2 rounded-md" title="All agents">
        <span className="flex size-7 items-center justify-center rounded-lg bg-gradient-to-br from-brand-from to-brand-to text-xs font-bold text-fg-on-accent shadow-sm">
          B
        </span>
        <span className="hidden text-sm font-semibold tracking-tight text-fg-muted sm:inline">BDK</span>
      </a>
      <span className="hidden text-line-strong sm:inline" aria-hidden="true">
        /
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex min-w-0 items-center gap-2">
          <h1 className="truncate text-sm font-semibold" data-testid="agent-name">
            {info?.displayName ?? info?.name ?? (slug || "Playground")}
          </h1>
          {loading ? <Spinner className="size-3 text-fg-dim" /> : null}
        </div>
        {model.id ? (
          <div className="flex min-w-0 items-center gap-1.5 text-xs text-fg-muted" data-testid="agent-model">
            <span className="truncate font-mono" title={modelInUse && modelInUse !== model.id ? `configured: ${model.id}` : undefined}>
              {modelInUse && modelInUse !== model.id ? `${modelInUse} (configured ${model.id})` : model.id}
            </span>
            <span className="hidden items-center gap-1 md:inline-flex">
              {model.params.map((param) => (
                <Badge key={param}>{param}</Badge>
              ))}
            </span>
          </div>
        ) : null}
      </div>
      <TokenField />
    </div>
  );
}
