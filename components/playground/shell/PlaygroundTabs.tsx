"use client";
import type { AgentInfo } from "../../api/types.ts";
import { TabList, TabPanel, type TabItem } from "../../ui/Tabs.tsx";
import { AgentTab } from "../agent/AgentTab.tsx";
import { ApprovalsTab } from "../approvals/ApprovalsTab.tsx";
import { ChatTab } from "../chat/ChatTab.tsx";
import { EvalsTab } from "../evals/EvalsTab.tsx";
import { useApprovals } from "../hooks.ts";
import { LogsTab } from "../logs/LogsTab.tsx";
import { useNavigation, type TabIdName } from "../navigation.tsx";
import { RawTab } from "../raw/RawTab.tsx";
import { RunsTab } from "../runs/RunsTab.tsx";
import type { FeedSnapshot } from "../session/session-feed.ts";
import { TraceTab } from "../trace/TraceTab.tsx";

const PREFIX = "pg";

/** The tab bar and the active tab's panel. Chat stays mounted (draft, notes); the session feed lives above all tabs. */
export function PlaygroundTabs({ info, feed }: { info: AgentInfo | undefined; feed: FeedSnapshot | null }) {
  const nav = useNavigation();
  const approvals = useApprovals();
  // Calls in doubt wait for a person too.
  const pendingCount = (approvals.data?.approvals?.length ?? 0) + (approvals.data?.inDoubt?.length ?? 0);

  const tabs: Array<TabItem<TabIdName>> = [
    { id: "chat", label: "Chat" },
    { id: "runs", label: "Runs" },
    {
      id: "approvals",
      label: "Approvals",
      badge: pendingCount ? (
        <span className="rounded-full bg-tone-warning-solid px-1.5 text-caption-sm leading-4 font-semibold text-fg-on-accent" aria-label={`${pendingCount} pending`}>
          {pendingCount}
        </span>
      ) : undefined,
    },
    { id: "evals", label: "Evals" },
    { id: "agent", label: "Agent" },
    { id: "trace", label: "Trace" },
    { id: "raw", label: "Raw" },
    { id: "logs", label: "Logs" },
  ];

  const panel = "min-h-0 flex-1";
  const page = "min-h-0 flex-1 overflow-y-auto scrollbar-thin";
  return (
    <>
      <nav className="shrink-0 border-b border-line bg-surface px-3">
        <TabList tabs={tabs} active={nav.tab} onChange={nav.setTab} idPrefix={PREFIX} label="Playground sections" />
      </nav>
      <main className="flex min-h-0 flex-1 flex-col">
        <TabPanel idPrefix={PREFIX} id="chat" active={nav.tab === "chat"} className={panel} keepMounted>
          <ChatTab info={info} feed={feed} active={nav.tab === "chat"} />
        </TabPanel>
        <TabPanel idPrefix={PREFIX} id="runs" active={nav.tab === "runs"} className={page}>
          <RunsTab />
        </TabPanel>
        <TabPanel idPrefix={PREFIX} id="approvals" active={nav.tab === "approvals"} className={page}>
          <ApprovalsTab query={approvals} />
        </TabPanel>
        <TabPanel idPrefix={PREFIX} id="evals" active={nav.tab === "evals"} className={page}>
          <EvalsTab info={info} />
        </TabPanel>
        <TabPanel idPrefix={PREFIX} id="agent" active={nav.tab === "agent"} className={page}>
          <AgentTab info={info} />
        </TabPanel>
        <TabPanel idPrefix={PREFIX} id="trace" active={nav.tab === "trace"} className={panel}>
          <TraceTab feed={feed} />
        </TabPanel>
        <TabPanel idPrefix={PREFIX} id="raw" active={nav.tab === "raw"} className={panel}>
          <RawTab feed={feed} />
        </TabPanel>
        <TabPanel idPrefix={PREFIX} id="logs" active={nav.tab === "logs"} className={panel}>
          <LogsTab />
        </TabPanel>
      </main>
    </>
  );
}
