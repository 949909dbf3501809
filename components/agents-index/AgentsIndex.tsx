"use client";
import { QueryClientProvider, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { isMissingRoute } from "../api/errors.ts";
import { apiJson } from "../api/http.ts";
import type { AgentIndexEntry } from "../api/types.ts";
import { makeQueryClient } from "../playground/query-client.ts";
import { TokenField } from "../playground/shell/TokenField.tsx";
import { EmptyState } from "../ui/EmptyState.tsx";
import { ErrorNotice } from "../ui/ErrorNotice.tsx";
import { Spinner } from "../ui/Spinner.tsx";
import { AgentCard } from "./AgentCard.tsx";

/** `/`: the agents this server hosts, each linking to its playground. */
export function AgentsIndex() {
  const [queryClient] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <div className="min-h-dvh">
        <header className="border-b border-line">
          <div className="mx-auto flex max-w-5xl items-center gap-3 px-4 py-3">
            <span className="flex size-7 items-center justify-center rounded-lg bg-gradient-to-br from-brand-from to-brand-to text-xs font-bold text-fg-on-accent shadow-sm">B</span>
            <h1 className="flex-1 text-sm font-semibold tracking-tight">BDK agents</h1>
            <TokenField />
          </div>
        </header>
        <main className="mx-auto max-w-5xl px-4 py-8">
          <AgentList />
        </main>
      </div>
    </QueryClientProvider>
  );
}

function AgentList() {
  const agents = useQuery({
    queryKey: ["agents"],
    queryFn: ({ signal }) => apiJson<{ ok: boolean; agents: AgentIndexEntry[] }>("/v1/agents", { signal }),
  });
  if (agents.isLoading)
    return (
      <div className="flex justify-center py-16">
        <Spinner className="text-fg-faint" />
      </div>
    );
  if (agents.isError && isMissingRoute(agents.error))
    return (
      <EmptyState
        title="This server hosts a single agent"
        action={
          <a href="/playground" className="inline-flex h-9 items-center rounded-md bg-accent-solid px-4 text-sm font-medium text-fg-on-accent hover:bg-accent-bright">
            Open the playground
          </a>
        }
      />
    );
  if (agents.isError) return <ErrorNotice error={agents.error} title="Could not list the agents" />;
  const list = agents.data?.agents ?? [];
  if (list.length === 0) return <EmptyState title="No agents found">Serve a folder that contains BDK projects.</EmptyState>;
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Agents">
      {list.map((agent) => (
        <AgentCard key={agent.slug} agent={agent} />
      ))}
    </ul>
  );
}
