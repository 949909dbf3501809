import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../host/logger.ts";
import type { AnyBdkEvent, EventType } from "../../protocol/events.ts";
import type { SessionRow } from "../../store/types.ts";
import type { SlackApi } from "./slack-client.ts";
import { SlackReplies } from "./slack-replies.ts";

type Call = { method: "post" | "update"; channel: string; ts?: string; thread_ts?: string; text: string };

function fakeApi(calls: Call[]): SlackApi {
  let n = 0;
  return {
    async postMessage(message) {
      calls.push({ method: "post", ...message });
      return { ts: `ts-${++n}` };
    },
    async update(message) {
      calls.push({ method: "update", ...message });
    },
  };
}

const session = { id: "ses_1", channelState: { team: "T1", channel: "C1", threadTs: "100.1", user: "U1" } } as unknown as SessionRow;
let index = 0;
const event = (type: EventType, data: Record<string, unknown>) => ({ type, index: index++, sessionId: "ses_1", at: "", data }) as unknown as AnyBdkEvent;

describe("SlackReplies", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("post mode posts the final answer to the thread", async () => {
    const calls: Call[] = [];
    const replies = new SlackReplies({ reply: { mode: "post" }, api: async () => fakeApi(calls), logger: createLogger(undefined) });
    await replies.deliver(event("turn.started", { model: "scripted" }), session);
    await replies.deliver(event("message.appended", { delta: "Hel" }), session);
    await replies.deliver(event("turn.completed", { result: "Hello there.", usage: {}, durationMs: 1 }), session);
    expect(calls).toEqual([{ method: "post", channel: "C1", thread_ts: "100.1", text: "Hello there." }]);
  });

  it("post mode with a status chip posts it, updates it while working, and turns it into the answer", async () => {
    const calls: Call[] = [];
    const replies = new SlackReplies({
      reply: { mode: "post", status: { reasoning: "Thinking…", tools: "Checking", idle: ["On it…"] } },
      api: async () => fakeApi(calls),
      logger: createLogger(undefined),
    });
    await replies.deliver(event("turn.started", { model: "scripted" }), session);
    await replies.deliver(event("reasoning.appended", { delta: "a" }), session);
    await replies.deliver(event("reasoning.appended", { delta: "b" }), session);
    await replies.deliver(event("actions.requested", { actions: [{ toolCallId: "c1", name: "inspect_pr", input: {} }] }), session);
    await replies.deliver(event("turn.completed", { result: "Done.", usage: {}, durationMs: 1 }), session);
    expect(calls.map((call) => [call.method, call.ts ?? call.thread_ts, call.text])).toEqual([
      ["post", "100.1", "On it…"],
      ["update", "ts-1", "Thinking…"],
      ["update", "ts-1", "Checking: inspect_pr"],
      ["update", "ts-1", "Done."],
    ]);
  });

  it("stream mode posts at the first words, then updates at most once per interval, ending with the full text", async () => {
    // The clock is the test's: on a busy machine real 15 ms sleeps stretch, and more intervals pass than the words imply.
    vi.useFakeTimers();
    const calls: Call[] = [];
    const replies = new SlackReplies({ reply: { mode: "stream" }, api: async () => fakeApi(calls), logger: createLogger(undefined), intervalMs: 100 });
    await replies.deliver(event("turn.started", { model: "scripted" }), session);
    const words = Array.from({ length: 30 }, (_, i) => `w${i} `);
    for (const word of words) {
      await replies.deliver(event("message.appended", { delta: word }), session);
      await vi.advanceTimersByTimeAsync(15);
    }
    await replies.deliver(event("turn.completed", { result: words.join("").trim(), usage: {}, durationMs: 1 }), session);
    expect(calls[0]).toMatchObject({ method: "post", thread_ts: "100.1" });
    expect(calls.slice(1).every((call) => call.method === "update" && call.ts === "ts-1")).toBe(true);
    expect(calls.length).toBeGreaterThan(2);
    expect(calls.length).toBeLessThan(words.length / 2);
    expect(calls.at(-1)?.text).toBe(words.join("").trim());
  });

  it("a failed turn says so in the thread; a Slack error is logged, not thrown", async () => {
    const calls: Call[] = [];
    const replies = new SlackReplies({ reply: undefined, api: async () => fakeApi(calls), logger: createLogger(undefined) });
    await replies.deliver(event("turn.started", { model: "scripted" }), session);
    await replies.deliver(event("turn.failed", { status: "failed", code: "model_error", message: "rate limited" }), session);
    expect(calls.at(-1)?.text).toBe("Sorry, I could not finish: rate limited");

    const warnings: string[] = [];
    const broken = new SlackReplies({
      reply: undefined,
      api: async () => Promise.reject(new Error("Set SLACK_BOT_TOKEN")),
      logger: { ...createLogger(undefined), warn: (msg) => warnings.push(msg) },
    });
    await broken.deliver(event("turn.completed", { result: "x", usage: {}, durationMs: 1 }), session);
    expect(warnings).toEqual(["Slack reply failed: Set SLACK_BOT_TOKEN"]);
  });
});
