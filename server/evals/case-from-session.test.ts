import { describe, expect, it } from "vitest";
import type { AnyBdkEvent } from "../protocol/events.ts";
import { evalCaseSource } from "./case-from-session.ts";

const at = "2026-03-04T05:06:07.000Z";
const event = (index: number, type: string, data: unknown) => ({ index, type, data, sessionId: "ses_1", turnId: "t", at }) as AnyBdkEvent;
const usage = { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 };

describe("evalCaseSource", () => {
  it("replays each message and asserts what each turn did: outcome, calls with their input, order, approvals", () => {
    const text = evalCaseSource({
      sessionId: "ses_1",
      title: 'Deploy "prod"',
      savedAt: new Date(at),
      events: [
        event(0, "session.started", { mode: "chat", channel: "http", principal: { type: "user", id: "local" } }),
        event(1, "message.received", { message: "hi" }),
        event(2, "turn.completed", { result: "hello", usage, durationMs: 1 }),
        event(3, "message.received", { message: 'deploy {"env":"prod"}', workspaceFiles: ["notes.md"] }),
        event(4, "actions.requested", { actions: [{ toolCallId: "a", name: "check", input: { env: "prod" } }] }),
        event(5, "actions.requested", { actions: [{ toolCallId: "b", name: "deploy", input: { env: "prod" } }] }),
        event(6, "action.approval_resolved", { approvalId: "x", toolCallId: "b", approved: false, by: "user:local", reason: "not today" }),
        event(7, "turn.failed", { status: "failed", code: "x", message: "no" }),
      ],
    });
    expect(text).toContain('description: "Deploy \\"prod\\"",');
    expect(text).toContain(`    await t.send("hi");
    t.succeeded();
    t.usedNoTools();

    // This message brought notes.md: pass them again with t.send(message, { workspaceFiles: { "path": "contents" } }).
    await t.send("deploy {\\"env\\":\\"prod\\"}");
    await t.deny("not today");
    t.failed();
    t.calledTool("check", { input: {"env":"prod"} });
    t.calledTool("deploy", { input: {"env":"prod"} });
    t.toolOrder(["check","deploy"]);`);
    expect(text).toContain("Saved from session ses_1 on 2026-03-04");
  });

  it("refuses a session without a user message", () => {
    expect(() => evalCaseSource({ sessionId: "ses_2", title: null, savedAt: new Date(at), events: [] })).toThrow("Session ses_2 has no user message to replay.");
  });
});
