"use client";
import { useEffect, useState, useSyncExternalStore } from "react";
import type { Api } from "../../api/api.ts";
import { SessionFeed, type FeedSnapshot } from "./session-feed.ts";

const noop = () => () => {};
const none = () => null;

/** Follows the selected session's events; restarts when the session or the token changes. */
export function useSessionFeed(api: Api, sessionId: string | null, token: string): FeedSnapshot | null {
  const [feed, setFeed] = useState<SessionFeed | null>(null);

  useEffect(() => {
    if (!sessionId) {
      setFeed(null);
      return;
    }
    const next = new SessionFeed(api, sessionId);
    setFeed(next);
    next.start();
    return () => next.dispose();
  }, [api, sessionId, token]);

  const snapshot = useSyncExternalStore(feed?.subscribe ?? noop, feed?.getSnapshot ?? none, none);
  return snapshot && snapshot.sessionId === sessionId ? snapshot : null;
}
