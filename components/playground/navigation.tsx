"use client";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";

export const TAB_IDS = ["chat", "runs", "approvals", "evals", "agent", "trace", "raw", "logs"] as const;
export type TabIdName = (typeof TAB_IDS)[number];

export interface Navigation {
  tab: TabIdName;
  sessionId: string | null;
  /** An eval run to show when the Evals tab opens. */
  evalRunId: string | null;
  setTab(tab: TabIdName): void;
  openSession(sessionId: string, tab?: TabIdName): void;
  openEvalRun(runId: string): void;
  newChat(): void;
}

const NavigationContext = createContext<Navigation | null>(null);

function readUrl(): { tab: TabIdName; sessionId: string | null; evalRunId: string | null } {
  const params = new URLSearchParams(window.location.search);
  const tab = params.get("tab");
  return {
    tab: (TAB_IDS as readonly string[]).includes(tab ?? "") ? (tab as TabIdName) : "chat",
    sessionId: params.get("sessionId") || null,
    evalRunId: params.get("evalRunId") || null,
  };
}

/** Tab and selected session live in the query string, so a link or a reload lands on the same view. */
export function NavigationProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState(readUrl);

  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const set = (key: string, value: string | null) => (value ? params.set(key, value) : params.delete(key));
    set("sessionId", state.sessionId);
    set("tab", state.tab === "chat" ? null : state.tab);
    set("evalRunId", state.tab === "evals" ? state.evalRunId : null);
    const search = params.toString();
    const next = `${window.location.pathname}${search ? `?${search}` : ""}${window.location.hash}`;
    if (next !== `${window.location.pathname}${window.location.search}${window.location.hash}`) window.history.replaceState(null, "", next);
  }, [state]);

  const setTab = useCallback((tab: TabIdName) => setState((s) => ({ ...s, tab })), []);
  const openSession = useCallback((sessionId: string, tab: TabIdName = "chat") => setState((s) => ({ ...s, sessionId, tab })), []);
  const openEvalRun = useCallback((evalRunId: string) => setState((s) => ({ ...s, evalRunId, tab: "evals" })), []);
  const newChat = useCallback(() => setState((s) => ({ ...s, sessionId: null, tab: "chat" })), []);

  const value = useMemo<Navigation>(() => ({ ...state, setTab, openSession, openEvalRun, newChat }), [state, setTab, openSession, openEvalRun, newChat]);
  return <NavigationContext.Provider value={value}>{children}</NavigationContext.Provider>;
}

export function useNavigation(): Navigation {
  const nav = useContext(NavigationContext);
  if (!nav) throw new Error("useNavigation outside NavigationProvider");
  return nav;
}
