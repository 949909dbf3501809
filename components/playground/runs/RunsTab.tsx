"use client";
import { useState } from "react";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { Button } from "../../ui/Button.tsx";
import { Section } from "../../ui/Section.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { SearchIcon } from "../../ui/icons.tsx";
import { cardClass, inputClass } from "../../ui/styles.ts";
import { cx } from "../../ui/cx.ts";
import { useApprovals, useSessions } from "../hooks.ts";
import { sessionStatusLabel } from "../session/session-status.ts";
import { useNavigation } from "../navigation.tsx";
import { useDebounced } from "../useDebounced.ts";
import { EvalRunsList } from "./EvalRunsList.tsx";
import { SessionRow } from "./SessionRow.tsx";

const PAGE = 50;

/** Sessions (searchable, live status) and eval runs. */
export function RunsTab() {
  const nav = useNavigation();
  const [search, setSearch] = useState("");
  const [limit, setLimit] = useState(PAGE);
  const q = useDebounced(search.trim(), 250);
  const sessions = useSessions(q, limit);
  const list = sessions.data?.sessions ?? [];
  const pending = useApprovals().data?.approvals ?? [];

  return (
    <div className="mx-auto max-w-5xl space-y-8 px-4 py-6">
      <Section
        title="Sessions"
        count={sessions.isSuccess ? list.length : undefined}
        actions={
          <div className="relative w-64 max-w-full">
            <SearchIcon className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-fg-dim" />
            <input
              type="search"
              value={search}
              onChange={(event) => {
                setSearch(event.target.value);
                setLimit(PAGE);
              }}
              placeholder="Search by title or id"
              aria-label="Search sessions"
              className={cx(inputClass, "pl-8")}
            />
            {search.trim() !== q || (sessions.isFetching && sessions.isPlaceholderData) ? <Spinner className="absolute top-3 right-2.5 size-3 text-fg-dim" /> : null}
          </div>
        }
      >
        {sessions.isError ? (
          <ErrorNotice error={sessions.error} />
        ) : sessions.isLoading ? (
          <div className="flex justify-center py-10">
            <Spinner className="text-fg-faint" />
          </div>
        ) : list.length === 0 ? (
          <EmptyState title={q ? `No session matches “${q}”` : "No sessions yet"}>
            {q ? "Search looks at titles and ids." : "Send a message in Chat, call a channel route, or fire a schedule."}
          </EmptyState>
        ) : (
          <>
            <ul className={`${cardClass} divide-y divide-line overflow-hidden`} aria-label="Sessions">
              {list.map((session) => (
                <SessionRow key={session.id} session={session} status={sessionStatusLabel(session, pending)} onOpen={(tab) => nav.openSession(session.id, tab)} />
              ))}
            </ul>
            {sessions.data?.nextCursor ? (
              <div className="flex justify-center">
                <Button size="sm" onClick={() => setLimit((n) => n + PAGE)}>
                  Load more
                </Button>
              </div>
            ) : null}
          </>
        )}
      </Section>
      <EvalRunsList />
    </div>
  );
}
