/** A large, realistic event record for performance checks (served through page.route, no server involved). */
import type { AnyBdkEvent } from "../server/protocol/events.ts";

export function syntheticEvents(sessionId: string, targetCount: number): AnyBdkEvent[] {
  const events: AnyBdkEvent[] = [];
  let clock = Date.parse("2026-01-01T00:00:00Z");
  const push = (type: AnyBdkEvent["type"], data: unknown, turnId?: string, advanceMs = 7) => {
    clock += advanceMs;
    events.push({ type, index: events.length, sessionId, turnId, at: new Date(clock).toISOString(), data } as AnyBdkEvent);
  };
  push("session.started", { mode: "chat", channel: "http", title: "Synthetic load test", principal: { type: "user", id: "local" } });
  for (let turn = 0; events.length < targetCount - 1; turn++) {
    const turnId = `turn_${String(turn).padStart(6, "0")}`;
    push("message.received", { message: `Inspect https://github.com/acme/checkout/pull/${turn}` }, turnId);
    push("turn.started", { model: "scripted" }, turnId);
    for (let step = 0; step < 2 && events.length < targetCount - 4; step++) {
      push("step.started", { step }, turnId);
      for (let i = 0; i < 5; i++) push("reasoning.appended", { delta: `thinking ${i} ` }, turnId, 3);
      if (step === 0) {
        const toolCallId = `call_${turn}`;
        push("actions.requested", { actions: [{ toolCallId, name: "inspect_pr", input: { prUrl: `https://github.com/acme/checkout/pull/${turn}` } }] }, turnId);
        push("action.result", { toolCallId, name: "inspect_pr", output: { complexity: "trivial", files: 1 }, isError: turn % 17 === 0, durationMs: 40 }, turnId, 40);
      } else {
        for (let i = 0; i < 10; i++) push("message.appended", { delta: `word${i} ` }, turnId, 2);
        push("message.completed", { text: Array.from({ length: 10 }, (_, i) => `word${i}`).join(" "), finishReason: "stop" }, turnId);
      }
      push("step.completed", { step, durationMs: 60, finishReason: step === 0 ? "tool-calls" : "stop", usage: { inputTokens: 400, outputTokens: 40, cachedInputTokens: 0 } }, turnId);
    }
    push("turn.completed", { result: "done", usage: { inputTokens: 800, outputTokens: 80, cachedInputTokens: 0 }, durationMs: 300 }, turnId);
    push("session.waiting", {}, turnId, 200);
  }
  return events.slice(0, targetCount);
}
