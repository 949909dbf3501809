import type { AgentInfo, ConnectionInfo, DiagnosticInfo, ScheduleInfo, ToolInfo } from "../../api/types.ts";
import { Badge } from "../../ui/Badge.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Section } from "../../ui/Section.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { cardClass } from "../../ui/styles.ts";
import { describeModel } from "../shell/modelLabel.ts";
import { ChannelsSection } from "./ChannelsSection.tsx";
import { ConnectionsSection } from "./ConnectionsSection.tsx";
import { DiagnosticsSection } from "./DiagnosticsSection.tsx";
import { EntryList } from "./EntryList.tsx";
import { MemorySection } from "./MemorySection.tsx";
import { ScheduleRow } from "./ScheduleRow.tsx";
import { ToolCard } from "./ToolCard.tsx";

const list = <T,>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

/** Everything discovery found in the project, straight from GET /v1/info. */
export function AgentTab({ info }: { info: AgentInfo | undefined }) {
  if (!info)
    return (
      <div className="flex justify-center py-16">
        <Spinner className="text-zinc-400" />
      </div>
    );
  const model = describeModel(info);
  const tools = list<ToolInfo>(info.tools).filter((tool) => tool && typeof tool.name === "string");
  const schedules = list<ScheduleInfo>(info.schedules);
  const diagnostics = list<DiagnosticInfo>(info.diagnostics);
  return (
    <div className="mx-auto max-w-5xl space-y-8 px-4 py-6">
      <div className={`${cardClass} flex flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3`}>
        <div className="min-w-0">
          <p className="text-base font-semibold">{info.displayName ?? info.name ?? "Agent"}</p>
          {info.description ? <p className="text-sm text-fg-muted">{info.description}</p> : null}
          {info.instructions?.source ? (
            <p className="mt-1 truncate text-xs text-fg-muted" title={info.instructions.firstLine}>
              instructions <span className="font-mono text-fg-soft">{info.instructions.source}</span>
              {typeof info.instructions.length === "number" ? ` · ${info.instructions.length.toLocaleString()} characters` : ""}
              {info.instructions.firstLine ? ` · ${info.instructions.firstLine}` : ""}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-1.5 text-xs">
          <span className="text-fg-muted">model</span>
          <span className="font-mono">{model.id ?? "—"}</span>
          {model.params.map((param) => (
            <Badge key={param}>{param}</Badge>
          ))}
        </div>
      </div>

      <Section title="Tools" count={tools.length}>
        {tools.length === 0 ? (
          <EmptyState title="No tools" className="py-6" />
        ) : (
          <ul className="grid gap-3 md:grid-cols-2">
            {tools.map((tool) => (
              <ToolCard key={tool.name} tool={tool} />
            ))}
          </ul>
        )}
      </Section>

      <div className="grid gap-8 md:grid-cols-2">
        <EntryList title="Skills" value={info.skills} empty="No skills" />
        <EntryList title="Subagents" value={info.subagents} empty="No subagents" />
        <ConnectionsSection connections={list<ConnectionInfo>(info.connections)} />
        <EntryList title="Hooks" value={info.hooks} empty="No hooks" />
        {Array.isArray(info.extensions) && info.extensions.length ? <EntryList title="Extensions" value={info.extensions} empty="No extensions" /> : null}
      </div>

      <ChannelsSection channels={list(info.channels)} />

      {list<{ memory?: unknown }>(info.hooks).some((hook) => hook?.memory) ? <MemorySection /> : null}

      <Section title="Schedules" count={schedules.length}>
        {schedules.length === 0 ? (
          <EmptyState title="No schedules" className="py-6" />
        ) : (
          <ul className={`${cardClass} divide-y divide-line`}>
            {schedules.map((schedule) => (
              <ScheduleRow key={schedule.name} schedule={schedule} />
            ))}
          </ul>
        )}
      </Section>

      <DiagnosticsSection diagnostics={diagnostics} />
    </div>
  );
}
