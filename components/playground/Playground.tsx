"use client";
import { QueryClientProvider, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, useSyncExternalStore } from "react";
import { apiBaseFromPath } from "../api/api.ts";
import { getAuthState, getServerAuthState, subscribeAuth } from "../api/auth-store.ts";
import { ApiProvider, useApi } from "./api-context.tsx";
import { useAgentInfo } from "./hooks.ts";
import { makeQueryClient } from "./query-client.ts";
import { NavigationProvider, useNavigation } from "./navigation.tsx";
import { useSessionFeed } from "./session/useSessionFeed.ts";
import { Header } from "./shell/Header.tsx";
import { ScriptedBanner } from "./shell/ScriptedBanner.tsx";
import { describeModel, modelInUse } from "./shell/modelLabel.ts";
import { InfoError } from "./shell/InfoError.tsx";
import { PlaygroundTabs } from "./shell/PlaygroundTabs.tsx";

/**
 * The playground page. Its API base comes from the URL (`/acme/playground`
 * talks to `/acme/v1`), so it renders only in the browser.
 */
export function Playground() {
  const [base, setBase] = useState<string | null>(null);
  const [queryClient] = useState(makeQueryClient);
  useEffect(() => setBase(apiBaseFromPath(window.location.pathname)), []);
  if (base === null) return <div className="h-dvh" aria-busy="true" />;
  return (
    <QueryClientProvider client={queryClient}>
      <ApiProvider base={base}>
        <NavigationProvider>
          <PlaygroundApp />
        </NavigationProvider>
      </ApiProvider>
    </QueryClientProvider>
  );
}

function PlaygroundApp() {
  const api = useApi();
  const nav = useNavigation();
  const queryClient = useQueryClient();
  const auth = useSyncExternalStore(subscribeAuth, getAuthState, getServerAuthState);
  const info = useAgentInfo();
  const feed = useSessionFeed(api, nav.sessionId, auth.token);

  // A new token may open doors that were closed: ask everything again.
  useEffect(() => {
    void queryClient.invalidateQueries();
  }, [auth.token, queryClient]);

  useEffect(() => {
    document.title = info.data?.name ? `${info.data.name} · BDK Playground` : "BDK Playground";
  }, [info.data?.name]);

  const configured = describeModel(info.data).id;
  const inUse = modelInUse(info.data, feed?.events);

  return (
    <div className="flex h-dvh flex-col">
      <header className="shrink-0 border-b border-line bg-surface/90 backdrop-blur">
        <Header info={info.data} loading={info.isLoading} base={api.base} modelInUse={inUse} />
        {inUse === "scripted" ? <ScriptedBanner configured={configured} /> : null}
        {info.isError ? <InfoError error={info.error} /> : null}
      </header>
      <PlaygroundTabs info={info.data} feed={feed} />
    </div>
  );
}
