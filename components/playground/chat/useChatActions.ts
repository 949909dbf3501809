"use client";
import { useCallback, useRef, useState } from "react";
import { errorMessage, isApiError } from "../../api/errors.ts";
import { callRoute } from "../channels/route-call.ts";
import { useApi } from "../api-context.tsx";
import { useNavigation } from "../navigation.tsx";
import { readContinuationToken, writeContinuationToken } from "../session/storage.ts";
import type { ChatNote } from "./notes.ts";
import { commandBody, commandUsage, parseSlash, type SlashCommand } from "./slash-commands.ts";

export interface PendingMessage {
  text: string;
  sessionKey: string;
  /** Cleared once the session records a message after this index. */
  afterIndex: number;
}

/** Sending messages and slash commands, stopping turns; client notes and the optimistic bubble. */
export function useChatActions(commands: SlashCommand[], lastIndex: number) {
  const api = useApi();
  const nav = useNavigation();
  const [pending, setPending] = useState<PendingMessage | null>(null);
  const [notes, setNotes] = useState<ChatNote[]>([]);
  const [sending, setSending] = useState(false);
  const nextNote = useRef(1);

  const addNote = useCallback((sessionKey: string, afterIndex: number, note: Omit<ChatNote, "id" | "sessionKey" | "afterIndex">) => {
    setNotes((all) => [...all, { ...note, id: nextNote.current++, sessionKey, afterIndex }]);
  }, []);

  const sessionId = nav.sessionId;
  const sessionKey = sessionId ?? "";

  async function runCommand(command: SlashCommand, rest: string) {
    if (!command.route) {
      addNote(sessionKey, lastIndex, { tone: "info", title: "Commands", commands });
      return;
    }
    let body: unknown;
    try {
      body = commandBody(command, rest);
    } catch {
      addNote(sessionKey, lastIndex, { tone: "error", title: `/${command.name}: the argument is not valid JSON` });
      return;
    }
    if (command.route.field && !rest) {
      addNote(sessionKey, lastIndex, { tone: "error", title: `Usage: ${commandUsage(command)}` });
      return;
    }
    const url = api.channelRouteUrl(command.route.channelId, command.route.path);
    const result = await callRoute(url, command.route.method, body);
    const serverMessage = (result.body as { message?: unknown } | null)?.message;
    const summary =
      !result.ok && typeof serverMessage === "string"
        ? `${serverMessage}\nA JSON argument is sent as the body: /${command.name} {"field": "value"}`
        : typeof result.body === "string"
          ? result.body
          : JSON.stringify(result.body, null, 2);
    if (result.sessionId) {
      const token = (result.body as { continuationToken?: unknown }).continuationToken;
      if (typeof token === "string") writeContinuationToken(api.base, result.sessionId, token);
      addNote(result.sessionId, -1, { tone: "success", title: `/${command.name} → ${result.status}, started this session` });
      nav.openSession(result.sessionId);
      return;
    }
    addNote(sessionKey, lastIndex, {
      tone: result.ok ? "success" : "error",
      title: `/${command.name} → ${result.status}`,
      body: summary && summary !== "null" ? summary.slice(0, 2000) : undefined,
    });
  }

  async function sendMessage(text: string) {
    if (!sessionId) {
      setPending({ text, sessionKey: "", afterIndex: -1 });
      const created = await api.createSession(text);
      writeContinuationToken(api.base, created.sessionId, created.continuationToken);
      setPending({ text, sessionKey: created.sessionId, afterIndex: -1 });
      nav.openSession(created.sessionId);
      return;
    }
    setPending({ text, sessionKey, afterIndex: lastIndex });
    let reply;
    try {
      reply = await api.followUp(sessionId, text, await tokenFor(sessionId, false));
    } catch (err) {
      // Another client (curl, a channel, another tab) moved the token on: ask for the current one once.
      if (!isApiError(err, 409) || err.code !== "stale_token") throw err;
      reply = await api.followUp(sessionId, text, await tokenFor(sessionId, true));
    }
    writeContinuationToken(api.base, sessionId, reply.continuationToken);
  }

  /**
   * The token this browser holds, or the owner's current one from
   * `GET /session/:id/token` (a session started by curl, a channel, a schedule
   * or an eval); a caller not allowed to continue it gets the server's 403.
   */
  async function tokenFor(id: string, refresh: boolean): Promise<string> {
    const known = refresh ? null : readContinuationToken(api.base, id);
    if (known) return known;
    const { continuationToken } = await api.continuationToken(id);
    if (!continuationToken) throw new Error("This session has no continuation token (it was deleted or has ended).");
    writeContinuationToken(api.base, id, continuationToken);
    return continuationToken;
  }

  /** Returns true when the draft was consumed (sent or handled). */
  async function send(text: string): Promise<boolean> {
    setSending(true);
    try {
      const slash = parseSlash(text);
      const command = slash && commands.find((candidate) => candidate.name === slash.name.toLowerCase());
      if (slash && command) await runCommand(command, slash.rest);
      else if (slash) {
        addNote(sessionKey, lastIndex, { tone: "error", title: `Unknown command /${slash.name}`, body: "Type /help to list commands." });
        return false;
      } else await sendMessage(text);
      return true;
    } catch (err) {
      setPending(null);
      const stale = isApiError(err, 409);
      addNote(sessionKey, lastIndex, {
        tone: "error",
        title: stale ? "The session refused this message" : "Could not send",
        body: errorMessage(err),
      });
      return false;
    } finally {
      setSending(false);
    }
  }

  async function stop() {
    if (!sessionId) return;
    try {
      await api.stop(sessionId);
    } catch (err) {
      addNote(sessionKey, lastIndex, { tone: "error", title: "Could not stop the turn", body: errorMessage(err) });
    }
  }

  return { send, stop, pending, setPending, notes, sending };
}
