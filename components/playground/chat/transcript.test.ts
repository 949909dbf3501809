import { describe, expect, it } from "vitest";
import type { AnyBdkEvent } from "../../api/types.ts";
import { buildTranscript, type ToolPart, type TurnItem } from "./transcript.ts";

function session(drafts: Array<{ type: string; turnId?: string; data: unknown }>): AnyBdkEvent[] {
  return drafts.map((draft, index) => ({ ...draft, index, sessionId: "ses_1", at: new Date(1_700_000_000_000 + index * 10).toISOString() }) as AnyBdkEvent);
}

const T = "turn_1";

describe("buildTranscript", () => {
  it("pairs tool calls with results and streams text from deltas", () => {
    const transcript = buildTranscript(
      session([
        { type: "session.started", data: { mode: "chat", channel: "http", principal: { type: "user", id: "local" } } },
        { type: "message.received", turnId: T, data: { message: "Inspect it" } },
        { type: "turn.started", turnId: T, data: { model: "scripted" } },
        { type: "reasoning.appended", turnId: T, data: { delta: "Let me " } },
        { type: "reasoning.appended", turnId: T, data: { delta: "look." } },
        { type: "reasoning.completed", turnId: T, data: { text: "Let me look." } },
        { type: "actions.requested", turnId: T, data: { actions: [{ toolCallId: "c1", name: "inspect_pr", input: { prUrl: "u" } }] } },
        { type: "action.result", turnId: T, data: { toolCallId: "c1", name: "inspect_pr", output: { ok: 1 }, isError: false, durationMs: 12 } },
        { type: "message.appended", turnId: T, data: { delta: "All " } },
        { type: "message.appended", turnId: T, data: { delta: "good" } },
      ]),
    );
    const turn = transcript.items[1] as TurnItem;
    expect(transcript.items[0]).toMatchObject({ kind: "user", text: "Inspect it" });
    expect(transcript.busy).toBe(true);
    expect(turn.parts.map((part) => part.kind)).toEqual(["reasoning", "tool", "text"]);
    expect(turn.parts[0]).toMatchObject({ text: "Let me look.", done: true });
    expect(turn.parts[1]).toMatchObject({ name: "inspect_pr", status: "done", output: { ok: 1 }, durationMs: 12 });
    expect(turn.parts[2]).toMatchObject({ text: "All good", done: false });
  });

  it("keeps a call cut off by a crash in doubt through the interrupted turn, then records who cleared it", () => {
    const drafts = [
      { type: "message.received", turnId: T, data: { message: "pay" } },
      { type: "turn.started", turnId: T, data: { model: "scripted" } },
      { type: "actions.requested", turnId: T, data: { actions: [{ toolCallId: "c1", name: "charge_card", input: { amount: 42 } }] } },
      { type: "action.in_doubt", turnId: T, data: { toolCallId: "c1", name: "charge_card", input: { amount: 42 }, effect: "write", startedAt: "x", message: "The server stopped" } },
      { type: "turn.failed", turnId: T, data: { status: "interrupted", code: "interrupted", message: "restart" } },
    ];
    const before = (buildTranscript(session(drafts)).items[1] as TurnItem).parts[0] as ToolPart;
    expect(before).toMatchObject({ status: "in_doubt", inDoubt: { message: "The server stopped", effect: "write" } });
    expect(before.inDoubt?.resolved).toBeUndefined();
    const resolved = { type: "action.in_doubt_resolved", turnId: T, data: { toolCallId: "c1", name: "charge_card", resolution: "not_done", by: "user:local" } };
    const after = (buildTranscript(session([...drafts, resolved])).items[1] as TurnItem).parts[0] as ToolPart;
    expect(after).toMatchObject({ status: "in_doubt", inDoubt: { resolved: { resolution: "not_done", by: "user:local" } } });
  });

  it("records usage on completion and the message on failure", () => {
    const transcript = buildTranscript(
      session([
        { type: "turn.started", turnId: "a", data: { model: "m" } },
        { type: "turn.completed", turnId: "a", data: { result: "", usage: { inputTokens: 10, outputTokens: 2, cachedInputTokens: 0 }, durationMs: 50 } },
        { type: "turn.started", turnId: "b", data: { model: "m" } },
        { type: "actions.requested", turnId: "b", data: { actions: [{ toolCallId: "c2", name: "shell", input: {} }] } },
        { type: "turn.failed", turnId: "b", data: { status: "failed", code: "model_unavailable", message: "Set XAI_API_KEY" } },
      ]),
    );
    const [first, second] = transcript.items as TurnItem[];
    expect(first).toMatchObject({ status: "completed", usage: { inputTokens: 10 }, durationMs: 50 });
    expect(second).toMatchObject({ status: "failed", error: { code: "model_unavailable", message: "Set XAI_API_KEY" } });
    expect((second.parts[0] as ToolPart).status).toBe("error");
    expect(transcript.busy).toBe(false);
  });

  it("tracks a parked approval until it is resolved", () => {
    const parked = session([
      { type: "turn.started", turnId: T, data: { model: "m" } },
      { type: "actions.requested", turnId: T, data: { actions: [{ toolCallId: "c1", name: "submit_review", input: {} }] } },
      { type: "action.approval_requested", turnId: T, data: { approvalId: "apr_1", toolCallId: "c1", name: "submit_review", input: {} } },
    ]);
    const tool = () => (buildTranscript(parked).items[0] as TurnItem).parts[0] as ToolPart;
    expect(tool()).toMatchObject({ status: "awaiting_approval", approval: { approvalId: "apr_1" } });
    parked.push({ type: "action.approval_resolved", index: 3, sessionId: "ses_1", turnId: T, at: parked[2].at, data: { approvalId: "apr_1", toolCallId: "c1", approved: false, by: "user:local" } });
    expect(tool()).toMatchObject({ status: "denied", approval: { resolved: { approved: false, by: "user:local" } } });
  });

  it("shows Connect while a call waits for authorization, then its result", () => {
    const waiting = session([
      { type: "turn.started", turnId: T, data: { model: "m" } },
      { type: "actions.requested", turnId: T, data: { actions: [{ toolCallId: "c1", name: "linear__say", input: { text: "hi" } }] } },
      { type: "action.authorization_required", turnId: T, data: { toolCallId: "c1", connection: "linear", authorizePath: "/v1/dev/mcp/linear/authorize" } },
    ]);
    const tool = (events: AnyBdkEvent[]) => (buildTranscript(events).items[0] as TurnItem).parts[0] as ToolPart;
    expect(tool(waiting)).toMatchObject({
      status: "awaiting_authorization",
      authorization: { connection: "linear", authorizePath: "/v1/dev/mcp/linear/authorize" },
    });
    expect(buildTranscript(waiting).busy).toBe(true);

    const continued = session([
      ...waiting,
      { type: "action.result", turnId: T, data: { toolCallId: "c1", name: "linear__say", output: { content: [{ type: "text", text: "ok" }] }, isError: false, durationMs: 900 } },
    ]);
    expect(tool(continued)).toMatchObject({ status: "done", output: { content: [{ type: "text", text: "ok" }] } });

    // A stopped turn leaves no Connect behind: nothing waits any more.
    const stopped = session([...waiting, { type: "turn.failed", turnId: T, data: { status: "cancelled", code: "cancelled", message: "The turn was stopped." } }]);
    expect(tool(stopped).status).toBe("error");
  });

  it("shows a subagent's wait for authorization on the task call that runs it", () => {
    const events = session([
      { type: "turn.started", turnId: T, data: { model: "m" } },
      { type: "actions.requested", turnId: T, data: { actions: [{ toolCallId: "t1", name: "task", input: { prompt: "look it up" } }] } },
      { type: "subagent.called", turnId: T, data: { toolCallId: "t1", subagent: "researcher", prompt: "look it up" } },
      { type: "action.authorization_required", turnId: T, data: { toolCallId: "call_private", connection: "linear", authorizePath: "/v1/dev/mcp/linear/authorize" } },
    ]);
    const task = (buildTranscript(events).items[0] as TurnItem).parts[0] as ToolPart;
    expect(task).toMatchObject({ name: "task", status: "awaiting_authorization", authorization: { connection: "linear" } });
  });

  it("marks interim narration and closes task sessions", () => {
    const transcript = buildTranscript(
      session([
        { type: "turn.started", turnId: T, data: { model: "m" } },
        { type: "message.completed", turnId: T, data: { text: "Checking…", finishReason: "tool-calls" } },
        { type: "turn.completed", turnId: T, data: { result: "", usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 }, durationMs: 1 } },
        { type: "session.completed", data: { result: "done" } },
      ]),
    );
    expect((transcript.items[0] as TurnItem).parts[0]).toMatchObject({ kind: "text", interim: true, done: true });
    expect(transcript.closed).toBe(true);
  });

  it("has the turn working from message.received, before the turn records anything", () => {
    const received = session([
      { type: "session.started", data: { mode: "chat", channel: "http", principal: { type: "user", id: "local" } } },
      { type: "message.received", turnId: T, data: { message: "hello" } },
    ]);
    const transcript = buildTranscript(received);
    expect(transcript.items.map((item) => item.kind)).toEqual(["user", "turn"]);
    expect(transcript.items[1]).toMatchObject({ turnId: T, status: "starting", parts: [] });
    expect(transcript.busy).toBe(true);
    expect(transcript.activity).toBe("running");

    const started = buildTranscript(session([...received, { type: "turn.started", turnId: T, data: { model: "m" } }]));
    expect(started.items.map((item) => item.kind)).toEqual(["user", "turn"]);
    expect(started.items[1]).toMatchObject({ status: "running", model: "m" });
  });

  it("says why a turn ended early: the user's Stop, a newer message, a restart", () => {
    const ended = (status: string, code: string) =>
      buildTranscript(
        session([
          { type: "message.received", turnId: T, data: { message: "hi" } },
          { type: "turn.started", turnId: T, data: { model: "m" } },
          { type: "turn.failed", turnId: T, data: { status, code, message: "…" } },
        ]),
      ).items[1] as TurnItem;
    expect(ended("cancelled", "cancelled")).toMatchObject({ status: "cancelled", stop: "stopped" });
    expect(ended("cancelled", "preempted")).toMatchObject({ status: "cancelled", stop: "preempted" });
    expect(ended("interrupted", "interrupted")).toMatchObject({ status: "interrupted", stop: "interrupted" });
    expect(ended("failed", "model_error").stop).toBeUndefined();
  });

  it("calls a session parked on an approval 'needs approval', an answered chat 'idle'", () => {
    const parked = session([
      { type: "message.received", turnId: T, data: { message: "submit" } },
      { type: "turn.started", turnId: T, data: { model: "m" } },
      { type: "actions.requested", turnId: T, data: { actions: [{ toolCallId: "c1", name: "submit_review", input: {} }] } },
      { type: "action.approval_requested", turnId: T, data: { approvalId: "apr_1", toolCallId: "c1", name: "submit_review", input: {} } },
    ]);
    expect(buildTranscript(parked).activity).toBe("needs approval");
    const answered = session([
      ...parked,
      { type: "action.approval_resolved", turnId: T, data: { approvalId: "apr_1", toolCallId: "c1", approved: true, by: "user:local" } },
      { type: "action.result", turnId: T, data: { toolCallId: "c1", name: "submit_review", output: {}, isError: false, durationMs: 3 } },
    ]);
    expect(buildTranscript(answered).activity).toBe("running");
    const done = session([...answered, { type: "turn.completed", turnId: T, data: { result: "", usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 }, durationMs: 9 } }]);
    expect(buildTranscript(done).activity).toBe("idle");
    expect(buildTranscript(session([...done, { type: "session.failed", data: { code: "x", message: "boom" } }])).activity).toBe("failed");
  });
});
