import { describe, expect, it } from "vitest";
import type { AnyBdkEvent } from "../../api/types.ts";
import { buildTranscript } from "../chat/transcript.ts";
import { type ForkDraft, forkRequest, messageBeforeCall, observedCallStubs, observedCalls, stubsAfterCut } from "./fork-form.ts";

const draft = (over: Partial<ForkDraft> = {}): ForkDraft => ({
  cut: { beforeIndex: 4 },
  original: "price of A1?",
  message: "price of A1?",
  model: "",
  params: "",
  instructions: "",
  stubs: {},
  callStubs: [],
  ...over,
});

const event = (index: number, type: string, data: unknown, turnId?: string) =>
  ({ index, type, data, sessionId: "ses_1", at: "2026-01-01T00:00:00.000Z", ...(turnId ? { turnId } : {}) }) as AnyBdkEvent;

describe("forkRequest", () => {
  it("sends only what changed: the cut alone re-runs the message as it was", () => {
    expect(forkRequest(draft())).toEqual({ ok: true, request: { beforeIndex: 4 } });
  });

  it("sends the edited message, the model, params, instructions and enabled stubs", () => {
    const result = forkRequest(
      draft({
        message: "price of B2?",
        model: " scripted ",
        params: "effort=high\n\n temperature = 0.2",
        instructions: "Be terse.",
        stubs: { price: { enabled: true, output: '{"price":7}', isError: false }, stock: { enabled: false, output: "1", isError: false } },
      }),
    );
    expect(result).toEqual({
      ok: true,
      request: {
        beforeIndex: 4,
        message: "price of B2?",
        overrides: {
          model: "scripted",
          params: [{ id: "effort", value: "high" }, { id: "temperature", value: "0.2" }],
          instructions: "Be terse.",
          toolResults: { price: { output: { price: 7 } } },
        },
      },
    });
  });

  it("sends an enabled single-call stub with its number", () => {
    const callStubs = [
      { name: "price", call: 2, toolCallId: "c2", enabled: true, output: '{"price":7}', isError: true },
      { name: "price", call: 3, toolCallId: "c3", enabled: false, output: "1", isError: false },
    ];
    expect(forkRequest(draft({ callStubs }))).toEqual({
      ok: true,
      request: { beforeIndex: 4, overrides: { toolCallResults: [{ name: "price", call: 2, output: { price: 7 }, isError: true }] } },
    });
    expect(forkRequest(draft({ callStubs: [{ ...callStubs[0], output: "{" }] }))).toEqual({ ok: false, problem: "The stubbed result of price call 2 is not valid JSON." });
  });

  it("names the field that is wrong", () => {
    expect(forkRequest(draft({ params: "effort" }))).toEqual({ ok: false, problem: "Params line 1: write id=value (e.g. effort=high)." });
    expect(forkRequest(draft({ stubs: { price: { enabled: true, output: "{", isError: false } } }))).toEqual({
      ok: false,
      problem: "The stubbed result of price is not valid JSON.",
    });
    expect(forkRequest(draft({ message: "  " }))).toEqual({ ok: false, problem: "The message is empty." });
  });
});

describe("observedCalls", () => {
  it("lists the tools the turn answering the message called, with their results, and stops at the next message", () => {
    const transcript = buildTranscript([
      event(0, "session.started", { mode: "chat", channel: "http", principal: { type: "user", id: "local" } }),
      event(1, "message.received", { message: "price of A1?" }, "t1"),
      event(2, "turn.started", { model: "scripted" }, "t1"),
      event(3, "actions.requested", { actions: [{ toolCallId: "c1", name: "price", input: { sku: "A1" } }] }, "t1"),
      event(4, "action.result", { toolCallId: "c1", name: "price", output: { price: 42 }, isError: false, durationMs: 1 }, "t1"),
      event(5, "turn.completed", { result: "42", usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 }, durationMs: 3 }, "t1"),
      event(6, "message.received", { message: "stock?" }, "t2"),
      event(7, "actions.requested", { actions: [{ toolCallId: "c2", name: "stock", input: {} }] }, "t2"),
    ]);
    expect(observedCalls(transcript.items, 1)).toEqual({ price: { enabled: false, output: '{\n  "price": 42\n}', isError: false } });
    expect(Object.keys(observedCalls(transcript.items, 6))).toEqual(["stock"]);
  });

  it("numbers a turn's calls as the fork API counts them: by tool, over the whole session, answered calls only", () => {
    const transcript = buildTranscript([
      event(0, "session.started", { mode: "chat", channel: "http", principal: { type: "user", id: "local" } }),
      event(1, "message.received", { message: "price of A1?" }, "t1"),
      event(2, "actions.requested", { actions: [{ toolCallId: "c1", name: "price", input: { sku: "A1" } }] }, "t1"),
      event(3, "action.result", { toolCallId: "c1", name: "price", output: { price: 42 }, isError: false, durationMs: 1 }, "t1"),
      event(4, "message.received", { message: "and B2, C3?" }, "t2"),
      event(5, "actions.requested", { actions: [{ toolCallId: "c2", name: "price", input: { sku: "B2" } }, { toolCallId: "c3", name: "stock", input: {} }, { toolCallId: "c4", name: "price", input: { sku: "C3" } }] }, "t2"),
      event(6, "action.result", { toolCallId: "c2", name: "price", output: { price: 5 }, isError: false, durationMs: 1 }, "t2"),
      event(7, "action.result", { toolCallId: "c3", name: "stock", output: 3, isError: false, durationMs: 1 }, "t2"),
      event(8, "action.result", { toolCallId: "c4", name: "price", output: "no such sku", isError: true, durationMs: 1 }, "t2"),
    ]);
    expect(observedCallStubs(transcript.items, 4, "c4")).toEqual([
      { name: "price", call: 2, toolCallId: "c2", enabled: false, output: '{\n  "price": 5\n}', isError: false },
      { name: "stock", call: 1, toolCallId: "c3", enabled: false, output: "3", isError: false },
      { name: "price", call: 3, toolCallId: "c4", enabled: true, output: '"no such sku"', isError: true },
    ]);
    const message = messageBeforeCall(transcript.items, "c4");
    expect(message?.kind === "user" && message.firstIndex).toBe(4);
    expect(messageBeforeCall(transcript.items, "nope")).toBeUndefined();
  });
});

describe("a fork cut right after an event", () => {
  const events = [
    event(0, "session.started", {}),
    event(1, "message.received", { message: "price of A1 and B2" }, "t1"),
    event(2, "turn.started", { model: "scripted" }, "t1"),
    event(3, "step.started", { step: 0 }, "t1"),
    event(4, "actions.requested", { actions: [{ toolCallId: "c1", name: "price", input: { sku: "A1" } }, { toolCallId: "c2", name: "price", input: { sku: "B2" } }] }, "t1"),
    event(5, "action.result", { toolCallId: "c1", name: "price", output: { price: 42 }, isError: false, durationMs: 1 }, "t1"),
    event(6, "action.result", { toolCallId: "c2", name: "price", output: { price: 43 }, isError: false, durationMs: 1 }, "t1"),
    event(7, "step.completed", { step: 0 }, "t1"),
    event(8, "turn.completed", { result: "ok" }, "t1"),
    event(9, "session.waiting", {}),
  ];

  it("sends afterIndex and the overrides, never a message", () => {
    const stubs = { price: { enabled: true, output: '{"price":7}', isError: false } };
    expect(forkRequest(draft({ cut: { afterIndex: 4 }, message: "", stubs }))).toEqual({
      ok: true,
      request: { afterIndex: 4, overrides: { toolResults: { price: { output: { price: 7 } } } } },
    });
  });

  it("stubs the turn's tools, and one by one the calls answered after the cut, numbered as the API counts them", () => {
    const cut = stubsAfterCut(events, 5);
    expect(cut.message).toBe("price of A1 and B2");
    expect(cut.stubs).toEqual({ price: { enabled: false, output: JSON.stringify({ price: 43 }, null, 2), isError: false } });
    expect(cut.callStubs).toEqual([{ name: "price", call: 2, toolCallId: "c2", enabled: false, output: JSON.stringify({ price: 43 }, null, 2), isError: false }]);
    expect(stubsAfterCut(events, 4).callStubs.map((stub) => stub.call)).toEqual([1, 2]);
  });
});
