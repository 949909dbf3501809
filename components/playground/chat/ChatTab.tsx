"use client";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { AgentInfo } from "../../api/types.ts";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { useApi } from "../api-context.tsx";
import { useIterate } from "../iterate/useIterate.tsx";
import { useNavigation } from "../navigation.tsx";
import type { FeedSnapshot } from "../session/session-feed.ts";
import { ChatWelcome } from "./ChatWelcome.tsx";
import { Composer, type ComposerHandle } from "./Composer.tsx";
import { interleave } from "./notes.ts";
import { SessionBar } from "./SessionBar.tsx";
import { slashCommandsFromInfo } from "./slash-commands.ts";
import { buildTranscript, type ToolPart, type UserItem } from "./transcript.ts";
import { TranscriptList } from "./TranscriptList.tsx";
import { UserMessage } from "./UserMessage.tsx";
import { useChatActions } from "./useChatActions.ts";

export function ChatTab({ info, feed: liveFeed, active }: { info: AgentInfo | undefined; feed: FeedSnapshot | null; active: boolean }) {
  // Chat stays mounted behind the other tabs (its draft and notes survive), but folding and drawing the events
  // there would only delay the visible tab (for 5,000 events, more than drawing that tab): it keeps what it last
  // showed and catches up when shown again.
  const shownFeed = useRef(liveFeed);
  useEffect(() => {
    if (active) shownFeed.current = liveFeed;
  }, [active, liveFeed]);
  const feed = active ? liveFeed : shownFeed.current;
  const api = useApi();
  const nav = useNavigation();
  const sessionId = nav.sessionId;
  const events = feed?.events;
  const version = feed?.version;
  // `events` grows in place; `version` says when.
  const transcript = useMemo(() => buildTranscript(events ?? []), [events, version]);
  const lastIndex = events?.length ? events[events.length - 1].index : -1;
  const commands = useMemo(() => slashCommandsFromInfo(info), [info]);
  const actions = useChatActions(commands, lastIndex);
  const { pending, setPending } = actions;
  const composer = useRef<ComposerHandle>(null);
  const pickSuggestion = useCallback((text: string) => composer.current?.fill(text), []);

  useEffect(() => {
    if (!pending || !events || pending.sessionKey !== sessionId) return;
    for (let i = events.length - 1; i >= 0 && events[i].index > pending.afterIndex; i--) {
      if (events[i].type === "message.received") {
        setPending(null);
        return;
      }
    }
  }, [pending, events, version, sessionId, setPending]);

  const sessionNotes = useMemo(() => actions.notes.filter((note) => note.sessionKey === (sessionId ?? "")), [actions.notes, sessionId]);
  const entries = useMemo(() => interleave(transcript.items, sessionNotes), [transcript, sessionNotes]);
  // A send sticks the transcript to the bottom again.
  const [followKey, setFollowKey] = useState(0);

  const sessionInfo = useQuery({
    queryKey: ["session", api.base, sessionId],
    queryFn: ({ signal }) => api.session(sessionId!, signal),
    enabled: !!sessionId,
    staleTime: 60_000,
  });
  const firstMessage = transcript.items.find((item) => item.kind === "user");
  const title = transcript.title ?? sessionInfo.data?.session?.title ?? (firstMessage?.kind === "user" ? firstMessage.text.slice(0, 120) : undefined);

  const showPending = pending && pending.sessionKey === (sessionId ?? "");
  const iterate = useIterate({ sessionId, items: transcript.items, events: events ?? [], title, parentId: sessionInfo.data?.session?.parentId });
  // Another principal's session (a shared link): nothing of it is shown, and nothing can be sent to it or forked from it.
  const unreadable = feed?.status === "error";
  const forbidden = unreadable && feed.errorStatus === 403;
  const hint = forbidden
    ? "This session belongs to another principal: only its owner can continue or fork it. Start a new chat, or sign in with the owner's token."
    : transcript.closed
      ? "This task session has ended; start a new chat to continue."
      : undefined;

  // Stable across renders, so the memoised transcript does not re-render when only the chat around it changes (a send in flight, a dialog).
  const latest = useRef({ messageActions: iterate.messageActions, toolActions: iterate.toolActions, openSession: nav.openSession });
  latest.current = { messageActions: iterate.messageActions, toolActions: iterate.toolActions, openSession: nav.openSession };
  const messageActions = useCallback((item: UserItem) => latest.current.messageActions(item), []);
  const toolActions = useCallback((part: ToolPart) => latest.current.toolActions(part), []);
  const openSession = useCallback((id: string) => latest.current.openSession(id), []);
  const showWelcome = !sessionId && sessionNotes.length === 0 && !showPending;
  const header: ReactNode = useMemo(
    () => (
      <>
        {feed?.status === "error" ? <ErrorNotice error={new Error(feed.error)} title={feed.errorStatus === 404 ? "Session not found" : feed.errorStatus === 403 ? "Not your session" : "Cannot open this session"} /> : null}
        {showWelcome ? <ChatWelcome info={info} commands={commands} onPick={pickSuggestion} /> : null}
      </>
    ),
    [feed?.status, feed?.error, feed?.errorStatus, showWelcome, info, commands, pickSuggestion],
  );
  const footer: ReactNode = useMemo(() => (showPending ? <UserMessage text={pending.text} pending /> : null), [showPending, pending?.text]);

  return (
    <div className="flex h-full min-h-0 flex-col">
      {sessionId ? <SessionBar sessionId={sessionId} title={title} channel={transcript.channel} status={feed?.status} activity={unreadable ? undefined : transcript.activity} turn={feed?.turn} actions={unreadable ? undefined : iterate.barActions} /> : null}
      {iterate.dialogs}
      <TranscriptList
        entries={entries}
        sessionId={sessionId ?? ""}
        busy={transcript.busy}
        header={header}
        footer={footer}
        followKey={followKey}
        messageActions={messageActions}
        toolActions={toolActions}
        onOpenSession={openSession}
      />
      <div className="border-t border-line bg-surface/80 px-4 py-3 backdrop-blur">
        <div className="mx-auto max-w-3xl">
          <Composer
            ref={composer}
            commands={commands}
            busy={transcript.busy}
            sending={actions.sending}
            disabled={transcript.closed || forbidden}
            hint={hint}
            placeholder="Send a message, or / for commands"
            onSend={(text) => {
              setFollowKey((key) => key + 1);
              return actions.send(text);
            }}
            onStop={actions.stop}
          />
        </div>
      </div>
    </div>
  );
}
