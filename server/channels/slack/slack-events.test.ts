import { describe, expect, it } from "vitest";
import { parseSlackPayload } from "./slack-events.ts";

const callback = (event: Record<string, unknown>) => ({
  type: "event_callback",
  team_id: "T1",
  event_id: "Ev1",
  authorizations: [{ user_id: "UBOT" }],
  event,
});

describe("parseSlackPayload", () => {
  it("answers the URL challenge", () => {
    expect(parseSlackPayload({ type: "url_verification", challenge: "abc" }, { dmThreads: false })).toEqual({ kind: "challenge", challenge: "abc" });
  });

  it("a mention is the conversation of its thread, without the mention", () => {
    const top = parseSlackPayload(callback({ type: "app_mention", user: "U1", channel: "C1", ts: "100.1", text: "<@UBOT> review this" }), { dmThreads: false });
    expect(top).toEqual({
      kind: "message",
      eventId: "Ev1",
      conversationKey: "slack:T1:C1:100.1",
      text: "review this",
      state: { team: "T1", channel: "C1", user: "U1", threadTs: "100.1" },
    });
    const reply = parseSlackPayload(callback({ type: "app_mention", user: "U2", channel: "C1", ts: "105.2", thread_ts: "100.1", text: "<@UBOT> and this?" }), { dmThreads: false });
    expect(reply.kind === "message" && reply.conversationKey).toBe("slack:T1:C1:100.1");
  });

  it("DMs share one conversation unless dm threads are on", () => {
    const dm = (ts: string, thread?: string) => callback({ type: "message", channel_type: "im", user: "U1", channel: "D1", ts, thread_ts: thread, text: "hi" });
    const shared = parseSlackPayload(dm("1.0"), { dmThreads: false });
    const later = parseSlackPayload(dm("2.0"), { dmThreads: false });
    expect(shared.kind === "message" && shared.conversationKey).toBe("slack:T1:D1");
    expect(later.kind === "message" && later.conversationKey).toBe("slack:T1:D1");
    expect(shared.kind === "message" && shared.state.threadTs).toBeUndefined();
    const threaded = parseSlackPayload(dm("2.0"), { dmThreads: true });
    expect(threaded.kind === "message" && threaded.conversationKey).toBe("slack:T1:D1:2.0");
  });

  it("ignores bots (itself included), edits, and channel posts that are also mentions", () => {
    const kinds = [
      callback({ type: "message", channel_type: "channel", bot_id: "B1", user: "U1", channel: "C1", ts: "1", text: "hi" }),
      callback({ type: "message", channel_type: "channel", user: "UBOT", channel: "C1", ts: "1", text: "my reply" }),
      callback({ type: "message", subtype: "message_changed", channel: "C1", ts: "1" }),
      callback({ type: "message", channel_type: "channel", user: "U1", channel: "C1", ts: "1", text: "<@UBOT> hi" }),
      { type: "app_rate_limited" },
    ].map((payload) => parseSlackPayload(payload, { dmThreads: false }).kind);
    expect(kinds).toEqual(["ignore", "ignore", "ignore", "ignore", "ignore"]);
  });

  it("a watched-channel post wakes the agent in its thread", () => {
    const post = parseSlackPayload(callback({ type: "message", channel_type: "channel", user: "U1", channel: "C9", ts: "7.5", text: "deploy failed" }), { dmThreads: false });
    expect(post.kind === "message" && post.conversationKey).toBe("slack:T1:C9:7.5");
  });
});
