"use client";
import { useState } from "react";
import type { ChannelInfo, ChannelRouteInfo } from "../../api/types.ts";
import { Badge } from "../../ui/Badge.tsx";
import { Button } from "../../ui/Button.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Section } from "../../ui/Section.tsx";
import { PlayIcon } from "../../ui/icons.tsx";
import { cardClass } from "../../ui/styles.ts";
import { useApi } from "../api-context.tsx";
import { TryModal } from "./TryModal.tsx";

/** Channels and their routes, each with a Try button. */
export function ChannelsSection({ channels }: { channels: ChannelInfo[] }) {
  const api = useApi();
  const [trying, setTrying] = useState<{ channelId: string; route: ChannelRouteInfo } | null>(null);
  return (
    <Section title="Channels" count={channels.length}>
      {channels.length === 0 ? (
        <EmptyState title="Only the built-in HTTP channel" className="py-6">
          Add files under <code className="font-mono">bot/channels/</code> to expose custom routes.
        </EmptyState>
      ) : (
        <ul className="space-y-3">
          {channels.map((channel) => (
            <li key={channel.id} className={`${cardClass} overflow-hidden`}>
              <div className="flex items-center gap-2 border-b border-line px-4 py-2.5">
                <span className="font-mono text-sm font-semibold">{channel.id}</span>
                {channel.pack ? <Badge>{channel.pack}</Badge> : null}
              </div>
              {(channel.routes ?? []).length === 0 ? (
                <p className="px-4 py-3 text-xs text-fg-muted">No HTTP routes.</p>
              ) : (
                <ul className="divide-y divide-surface-hover">
                  {(channel.routes ?? []).map((route, index) => {
                    const method = (route.method ?? "POST").toUpperCase();
                    return (
                      <li key={`${method} ${route.path}-${index}`} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5">
                        <Badge tone="accent" className="w-14 justify-center font-mono">
                          {method}
                        </Badge>
                        <span className="min-w-0 flex-1 basis-48">
                          <span className="block truncate font-mono text-xs" title={api.channelRouteUrl(channel.id, route.path ?? "/")}>
                            {api.channelRouteUrl(channel.id, route.path ?? "/")}
                          </span>
                          {route.description ? <span className="block text-xs text-fg-muted">{route.description}</span> : null}
                        </span>
                        <Button size="sm" variant="secondary" onClick={() => setTrying({ channelId: channel.id, route })}>
                          <PlayIcon className="size-3" /> Try
                        </Button>
                      </li>
                    );
                  })}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
      {trying ? <TryModal channelId={trying.channelId} route={trying.route} onClose={() => setTrying(null)} /> : null}
    </Section>
  );
}
