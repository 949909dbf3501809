"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { AgentInfo } from "../../api/types.ts";
import { ErrorNotice } from "../../ui/ErrorNotice.tsx";
import { useApi } from "../api-context.tsx";
import { useIterate } from "../iterate/useIterate.tsx";
import { useNavigation } from "../navigation.tsx";
import type { FeedSnapshot } from "../session/session-feed.ts";
import { ChatWelcome } from "./ChatWelcome.tsx";
import { Composer } from "./Composer.tsx";
import { interleave } from "./notes.ts";
import { NoteView } from "./NoteView.tsx";
import { SessionBar } from "./SessionBar.tsx";
import { slashCommandsFromInfo } from "./slash-commands.ts";
import { buildTranscript } from "./transcript.ts";
import { TurnView } from "./TurnView.tsx";
import { UserMessage } from "./UserMessage.tsx";
import { useChatActions } from "./useChatActions.ts";

export function ChatTab({ info, feed }: { info: AgentInfo | undefined; feed: FeedSnapshot | null }) {
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
  const [draft, setDraft] = useState("");

  useEffect(() => {
    if (!pending || !events || pending.sessionKey !== sessionId) return;
    for (let i = events.length - 1; i >= 0 && events[i].index > pending.afterIndex; i--) {
      if (events[i].type === "message.received") {
        setPending(null);
        return;
      }
    }
  }, [pending, events, version, sessionId, setPending]);

  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const sessionNotes = actions.notes.filter((note) => note.sessionKey === (sessionId ?? ""));
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && stickToBottom.current) element.scrollTop = element.scrollHeight;
  }, [version, sessionNotes.length, pending, sessionId]);
  useEffect(() => {
    stickToBottom.current = true;
  }, [sessionId]);

  const sessionInfo = useQuery({
    queryKey: ["session", api.base, sessionId],
    queryFn: ({ signal }) => api.session(sessionId!, signal),
    enabled: !!sessionId,
    staleTime: 60_000,
  });
  const firstMessage = transcript.items.find((item) => item.kind === "user");
  const title = transcript.title ?? sessionInfo.data?.session?.title ?? (firstMessage?.kind === "user" ? firstMessage.text.slice(0, 120) : undefined);

  const showPending = pending && pending.sessionKey === (sessionId ?? "");
  const iterate = useIterate({ sessionId, items: transcript.items, title, parentId: sessionInfo.data?.session?.parentId });
  const hint = transcript.closed ? "This task session has ended; start a new chat to continue." : undefined;

  return (
    <div className="flex h-full min-h-0 flex-col">
      {sessionId ? <SessionBar sessionId={sessionId} title={title} channel={transcript.channel} status={feed?.status} activity={transcript.activity} actions={iterate.barActions} /> : null}
      {iterate.dialogs}
      <div
        ref={scroller}
        className="min-h-0 flex-1 overflow-y-auto scrollbar-thin"
        onScroll={(event) => {
          const element = event.currentTarget;
          stickToBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
        }}
      >
        <div className="mx-auto max-w-3xl space-y-6 px-4 py-6" aria-live="polite" aria-busy={transcript.busy}>
          {feed?.status === "error" ? <ErrorNotice error={new Error(feed.error)} title={feed.errorStatus === 404 ? "Session not found" : "Cannot open this session"} /> : null}
          {!sessionId && sessionNotes.length === 0 && !showPending ? <ChatWelcome info={info} commands={commands} onPick={setDraft} /> : null}
          {interleave(transcript.items, sessionNotes).map((entry) => {
            if ("note" in entry) return <NoteView key={`note-${entry.note.id}`} note={entry.note} onOpenSession={(id) => nav.openSession(id)} />;
            const item = entry.item;
            if (item.kind === "user") return <UserMessage key={item.key} text={item.text} files={item.files} actions={iterate.messageActions(item)} />;
            if (item.kind === "turn") return <TurnView key={item.key} turn={item} sessionId={sessionId ?? ""} />;
            return (
              <p key={item.key} className={item.tone === "error" ? "text-center text-xs text-tone-danger" : "text-center text-xs text-fg-muted"}>
                {item.text}
              </p>
            );
          })}
          {showPending ? <UserMessage text={pending.text} pending /> : null}
        </div>
      </div>
      <div className="border-t border-line bg-white/80 px-4 py-3 backdrop-blur dark:bg-zinc-950/80">
        <div className="mx-auto max-w-3xl">
          <Composer
            commands={commands}
            busy={transcript.busy}
            sending={actions.sending}
            disabled={transcript.closed}
            hint={hint}
            placeholder="Send a message, or / for commands"
            draft={draft}
            onDraftChange={setDraft}
            onSend={async (text) => {
              setDraft("");
              stickToBottom.current = true;
              const consumed = await actions.send(text);
              if (!consumed) setDraft((current) => current || text);
            }}
            onStop={actions.stop}
          />
        </div>
      </div>
    </div>
  );
}
