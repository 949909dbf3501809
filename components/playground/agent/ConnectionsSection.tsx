"use client";
import { useQueryClient } from "@tanstack/react-query";
import type { ConnectionInfo } from "../../api/types.ts";
import { Badge, type Tone } from "../../ui/Badge.tsx";
import { Button } from "../../ui/Button.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Section } from "../../ui/Section.tsx";
import { cardClass } from "../../ui/styles.ts";
import { useApi } from "../api-context.tsx";

const TONES: Record<string, Tone> = { connected: "success", error: "danger", idle: "neutral" };

/**
 * The agent's MCP connections with their client state. Host connections
 * (`bot/host-connections/`) are for host code only and are not shown here.
 * Clients open on first use, so the state changes after turns: Refresh
 * re-reads `info`.
 */
export function ConnectionsSection({ connections }: { connections: ConnectionInfo[] }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const shown = connections.filter((connection) => connection && typeof connection.name === "string" && connection.scope !== "host");
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["info", api.base] });
  return (
    <Section
      id="agent-connections"
      title="Connections"
      count={shown.length}
      actions={
        shown.length ? (
          <Button size="sm" variant="ghost" onClick={refresh}>
            Refresh
          </Button>
        ) : null
      }
    >
      {shown.length === 0 ? (
        <EmptyState title="No MCP connections" className="py-6" />
      ) : (
        <ul className={`${cardClass} divide-y divide-line`}>
          {shown.map((connection) => (
            <ConnectionRow key={connection.name} connection={connection} />
          ))}
        </ul>
      )}
    </Section>
  );
}

function ConnectionRow({ connection }: { connection: ConnectionInfo }) {
  return (
    <li className="space-y-1 px-4 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-sm font-medium">{connection.name}</span>
        {connection.transport ? <Badge>{connection.transport}</Badge> : null}
        {connection.status ? (
          <Badge tone={TONES[connection.status] ?? "neutral"} title={connection.status === "idle" ? "starts on first use" : undefined}>
            {connection.status}
          </Badge>
        ) : null}
      </div>
      {connection.description ? <p className="text-sm text-fg-muted">{connection.description}</p> : null}
      {connection.target ? (
        <p className="truncate font-mono text-xs text-fg-muted" title={connection.target}>
          {connection.target}
        </p>
      ) : null}
      {connection.tools?.length ? (
        <p className="text-xs text-fg-muted">
          tools <span className="font-mono text-fg-soft">{connection.tools.join(", ")}</span>
        </p>
      ) : null}
      {connection.error ? (
        <p role="alert" className="text-xs break-words text-tone-danger">
          {connection.error}
        </p>
      ) : null}
    </li>
  );
}
