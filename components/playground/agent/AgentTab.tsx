"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { AgentInfo, ConnectionInfo, DiagnosticInfo, ModelOffer, ScheduleInfo, ToolInfo } from "../../api/types.ts";
import { Badge } from "../../ui/Badge.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Section } from "../../ui/Section.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { cardClass } from "../../ui/styles.ts";
import { Button } from "../../ui/Button.tsx";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { useApi } from "../api-context.tsx";
import { useDevMode, useModelOffer } from "../hooks.ts";
import { useNavigation } from "../navigation.tsx";
import { describeModel } from "../shell/modelLabel.ts";
import { ChannelsSection } from "./ChannelsSection.tsx";
import { ConnectionsSection } from "./ConnectionsSection.tsx";
import { DiagnosticsSection } from "./DiagnosticsSection.tsx";
import { EntryList } from "./EntryList.tsx";
import { MemorySection } from "./MemorySection.tsx";
import { type OfferChange, offerChange, offeredToolCards } from "./offer.ts";
import { RemindersSection } from "./RemindersSection.tsx";
import { ScheduleRow } from "./ScheduleRow.tsx";
import { SystemPromptSection } from "./SystemPromptSection.tsx";
import { ToolCard } from "./ToolCard.tsx";

const list = <T,>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

/**
 * After a hot reload (the offer's bot version changes), what changed, until
 * dismissed; the discovery facts (`info`) are fetched again with it.
 */
function useReloadNotice(offer: ModelOffer | undefined): [OfferChange | undefined, () => void] {
  const api = useApi();
  const queryClient = useQueryClient();
  const previous = useRef<ModelOffer | undefined>(undefined);
  const [change, setChange] = useState<OfferChange | undefined>();
  useEffect(() => {
    if (!offer) return;
    const changed = previous.current && offerChange(previous.current, offer);
    previous.current = offer;
    if (!changed) return;
    setChange(changed);
    void queryClient.invalidateQueries({ queryKey: ["info", api.base] });
  }, [offer, api.base, queryClient]);
  return [change, () => setChange(undefined)];
}

function ReloadNotice({ change, onDismiss }: { change: OfferChange; onDismiss: () => void }) {
  const parts = [
    change.added.length ? `added ${change.added.join(", ")}` : "",
    change.removed.length ? `removed ${change.removed.join(", ")}` : "",
    change.promptChanged ? "system prompt changed" : "",
  ].filter(Boolean);
  return (
    <div role="status" data-testid="reload-notice" className={`${cardClass} flex flex-wrap items-center gap-2 border-tone-info-line bg-tone-info-soft px-4 py-2 text-sm`}>
      <span>
        Reloaded: now version <span className="font-mono">{change.version}</span> (was <span className="font-mono">{change.previousVersion}</span>)
        {parts.length ? ` · ${parts.join(" · ")}` : ""}
      </span>
      <Button size="sm" variant="ghost" className="ml-auto" onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}

/** What the model is offered (GET /v1/agent/offer) and everything discovery found in the project (GET /v1/info). */
export function AgentTab({ info }: { info: AgentInfo | undefined }) {
  const nav = useNavigation();
  const dev = useDevMode();
  const sessionId = nav.sessionId ?? undefined;
  const offer = useModelOffer(sessionId, dev);
  const [change, dismiss] = useReloadNotice(offer.data);
  if (!info)
    return (
      <div className="flex justify-center py-16">
        <Spinner className="text-fg-faint" />
      </div>
    );
  const model = describeModel(info);
  const discovered = list<ToolInfo>(info.tools).filter((tool) => tool && typeof tool.name === "string");
  const tools = offer.data ? offeredToolCards(offer.data, discovered) : [];
  const schedules = list<ScheduleInfo>(info.schedules);
  const diagnostics = list<DiagnosticInfo>(info.diagnostics);
  return (
    <div className="mx-auto max-w-5xl space-y-8 px-4 py-6">
      {change ? <ReloadNotice change={change} onDismiss={dismiss} /> : null}
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
          {offer.data ? (
            <>
              <span className="text-fg-muted">version</span>
              <span className="mr-3 font-mono" data-testid="bot-version">
                {offer.data.botVersion}
              </span>
            </>
          ) : null}
          <span className="text-fg-muted">model</span>
          <span className="font-mono">{model.id ?? "—"}</span>
          {model.params.map((param) => (
            <Badge key={param}>{param}</Badge>
          ))}
        </div>
      </div>

      {offer.isError ? <ErrorNotice error={offer.error} title="Could not read what the model is offered" /> : null}
      {offer.data ? <SystemPromptSection offer={offer.data} sessionId={sessionId} /> : null}

      <Section title="Tools the model is offered" count={offer.data ? tools.length : undefined}>
        {!offer.data ? (
          <div className="flex justify-center py-6">
            <Spinner className="text-fg-faint" />
          </div>
        ) : tools.length === 0 ? (
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

      {dev ? <RemindersSection /> : null}

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
