import type { SlashCommand } from "./slash-commands.ts";

/** A client-side line in the chat (slash command output); never sent to the server. */
export interface ChatNote {
  id: number;
  /** Session shown when the note was written ("" before any session). */
  sessionKey: string;
  /** Placed after the transcript item with this event index. */
  afterIndex: number;
  tone: "info" | "success" | "error";
  title: string;
  body?: string;
  commands?: SlashCommand[];
  openSessionId?: string;
}

/** Interleaves notes with transcript items by event index. */
export function interleave<T extends { firstIndex: number }>(items: T[], notes: ChatNote[]): Array<{ item: T } | { note: ChatNote }> {
  const out: Array<{ item: T } | { note: ChatNote }> = [];
  let n = 0;
  for (const item of items) {
    while (n < notes.length && notes[n].afterIndex < item.firstIndex) out.push({ note: notes[n++] });
    out.push({ item });
  }
  while (n < notes.length) out.push({ note: notes[n++] });
  return out;
}
