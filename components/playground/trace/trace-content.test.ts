import { describe, expect, it } from "vitest";
import type { AnyBdkEvent, ModelCall } from "../../api/types.ts";
import { niceTicks } from "./axis.ts";
import { subagentRows } from "./subagent-rows.ts";
import { buildTimeline } from "./timeline.ts";

const usage = { inputTokens: 5, outputTokens: 1, cachedInputTokens: 0 };
let index = 0;
const event = (type: AnyBdkEvent["type"], data: unknown, atMs: number): AnyBdkEvent =>
  ({ type, index: index++, sessionId: "ses_1", turnId: "turn_1", at: new Date(Date.UTC(2026, 0, 1) + atMs).toISOString(), data }) as AnyBdkEvent;

const events = [
  event("turn.started", { model: "scripted" }, 0),
  event("step.started", { step: 0 }, 1),
  event("actions.requested", { actions: [{ toolCallId: "c1", name: "approve_pr", input: { pr: 1 } }, { toolCallId: "c2", name: "task", input: {} }] }, 2),
  event("action.approval_requested", { approvalId: "apr_1", toolCallId: "c1", name: "approve_pr", input: { pr: 1 } }, 3),
  event("action.approval_resolved", { approvalId: "apr_1", toolCallId: "c1", approved: true, by: "user:local", reason: "fine" }, 503),
  // 900 ms between the stamps, 12.5 ms in the tool: the row says what the server measured.
  event("action.result", { toolCallId: "c1", name: "approve_pr", output: { ok: true }, isError: false, durationMs: 12.5 }, 903),
  event("subagent.called", { subagent: "researcher", toolCallId: "c2", prompt: "look it up" }, 904),
  event("subagent.completed", { subagent: "researcher", toolCallId: "c2", result: "found", isError: false }, 1000),
  event("step.completed", { step: 0, durationMs: 999, finishReason: "tool-calls", usage }, 1001),
];

const call = (step: number, startMs: number, messages: unknown[], toolCalls: ModelCall["response"]["toolCalls"]): ModelCall => ({
  turnId: "turn_1",
  scope: "c2",
  step,
  startedAt: new Date(Date.UTC(2026, 0, 1) + startMs).toISOString(),
  durationMs: 20,
  request: { system: "You research.", messages, tools: [], params: { model: "scripted", provider: "bdk", modelId: "scripted" } },
  response: { text: "", reasoning: "", toolCalls, finishReason: toolCalls.length ? "tool-calls" : "stop", usage },
});

describe("trace rows with content", () => {
  it("gives a tool row its input, output, approval and the server's durationMs", () => {
    const tool = buildTimeline(events).rows.find((row) => row.label === "approve_pr")!;
    expect(tool.durationMs).toBe(12.5);
    expect(tool.tool).toMatchObject({
      toolCallId: "c1",
      input: { pr: 1 },
      output: { ok: true },
      isError: false,
      approval: { requestedAt: expect.any(Number), resolved: { approved: true, by: "user:local", reason: "fine" } },
    });
    const subagent = buildTimeline(events).rows.find((row) => row.kind === "subagent")!;
    expect(subagent).toMatchObject({ scope: "c2", turnId: "turn_1", subagent: { prompt: "look it up", result: "found" } });
  });

  it("opens a subagent row into its own steps and their tool calls with the results the next step was sent", () => {
    const subagent = buildTimeline(events).rows.find((row) => row.kind === "subagent")!;
    const result = { role: "tool", content: [{ type: "tool-result", toolCallId: "s1", toolName: "search", output: { type: "json", value: { hits: 3 } } }] };
    const children = subagentRows(subagent, [
      call(1, 950, [{ role: "user", content: "look it up" }, result], []),
      call(0, 905, [{ role: "user", content: "look it up" }], [{ toolCallId: "s1", name: "search", input: { q: "x" } }]),
      { ...call(0, 0, [], []), scope: "" },
    ]);
    expect(children.map((row) => [row.kind, row.label, row.depth])).toEqual([
      ["step", "Step 0", subagent.depth + 1],
      ["tool", "search", subagent.depth + 2],
      ["step", "Step 1", subagent.depth + 1],
    ]);
    expect(children[1]).toMatchObject({ status: "ok", tool: { input: { q: "x" }, output: { hits: 3 }, isError: false } });
    expect(children[0]).toMatchObject({ durationMs: 20, scope: "c2", step: 0, tokens: { input: 5, output: 1 } });
  });

  it("labels the ticks of a span of a few milliseconds once each", () => {
    expect(niceTicks(1)).toEqual([0, 1]);
    expect(new Set(niceTicks(3)).size).toBe(niceTicks(3).length);
  });
});
