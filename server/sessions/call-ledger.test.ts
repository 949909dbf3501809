import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { startTestRuntime, type TestRuntime } from "../../test/support/runtime.ts";
import { testAgent, zodTool } from "../../test/support/tools.ts";
import { historyFromEvents } from "../harness/history.ts";
import { openStore } from "../store/index.ts";
import { asyncStore } from "../store/async-store.ts";
import { turnLedger } from "./call-ledger.ts";
import { SessionEventLog } from "./event-log.ts";
import { createLogger } from "../host/logger.ts";

const me = { type: "user" as const, id: "local" };
const opened: TestRuntime[] = [];
afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.close();
});

let runs = 0;
const pay = zodTool(
  "pay_invoice",
  z.object({ invoice: z.string() }),
  ({ invoice }) => {
    runs++;
    return { paid: invoice };
  },
  { effect: () => "write" },
);
const lookup = zodTool("lookup_invoice", z.object({ invoice: z.string() }), ({ invoice }) => ({ invoice, due: 10 }), { effect: () => "read" });

const tmp = () => mkdtempSync(path.join(tmpdir(), "bdk-ledger-"));
const start = (stateRoot: string) => {
  const opened1 = startTestRuntime({ stateRoot, agent: testAgent([pay, lookup]) });
  opened.push(opened1);
  return opened1;
};

describe("the side-effect ledger", () => {
  it("records a turn's call before it runs and its outcome when it returns", async () => {
    const { runtime, store } = start(tmp());
    const handle = await runtime.startSession({ message: 'pay_invoice {"invoice": "inv_1"}', principal: me });
    expect((await handle.done).status).toBe("completed");
    const result = (await runtime.reader.events(handle.sessionId, me)).find((event) => event.type === "action.result")!;
    const { toolCallId, name, ...outcome } = result.data as { toolCallId: string; name: string };
    expect(store.toolCalls.ofTurn(handle.sessionId, handle.turnId)).toEqual([
      expect.objectContaining({ toolCallId, name, effect: "write", input: { invoice: "inv_1" }, status: "finished", outcome }),
    ]);
  });

  it("stores the turn's buffered events with the start row, and never runs a call it already has", async () => {
    const stateRoot = tmp();
    const store = openStore(stateRoot);
    try {
      const ledgerStore = asyncStore(store);
      const log = new SessionEventLog(ledgerStore, createLogger(ledgerStore), () => new Date());
      const session = store.sessions.create({ mode: "chat", channel: "http", principal: me });
      store.turns.create({ id: "turn_1", sessionId: session.id, status: "running", message: "pay" });
      const call = { toolCallId: "call_1", name: "pay_invoice", input: { invoice: "inv_9" } };
      log.appendSoon(session.id, { type: "actions.requested", turnId: "turn_1", data: { actions: [call] } });
      const ledger = turnLedger(ledgerStore, log, session.id, "turn_1");

      expect(await ledger.begin(call, pay)).toBeUndefined();
      // Stored now, not at the end of the tick: a crash during the call leaves the request in the log.
      expect(store.events.hasTurnEvent(session.id, "turn_1", "actions.requested")).toBe(true);
      expect(store.toolCalls.get({ sessionId: session.id, turnId: "turn_1", toolCallId: "call_1" })?.status).toBe("started");
      // Begun again before it returned (the process that ran it is gone): in doubt, not run.
      expect(await ledger.begin(call, pay)).toMatchObject({ isError: true, output: expect.stringContaining("in doubt") });

      ledger.end(call, { output: { paid: "inv_9" }, isError: false, durationMs: 3 });
      expect(await ledger.begin(call, pay)).toEqual({ output: { paid: "inv_9" }, isError: false, durationMs: 3 });
      // An invalid input cannot decide a dynamic effect: it counts as a write.
      expect(await ledger.begin({ toolCallId: "call_2", name: "lookup_invoice", input: { nope: 1 } }, lookup)).toBeUndefined();
      expect(store.toolCalls.get({ sessionId: session.id, turnId: "turn_1", toolCallId: "call_2" })?.effect).toBe("write");
      // A schema that transforms the input into what JSON cannot hold (a BigInt): the call is recorded with its raw input.
      const count = zodTool("count_items", z.object({ n: z.string().transform((text) => BigInt(text)) }), () => "ok", { effect: () => "read" });
      expect(await ledger.begin({ toolCallId: "call_3", name: "count_items", input: { n: "12" } }, count)).toBeUndefined();
      expect(store.toolCalls.get({ sessionId: session.id, turnId: "turn_1", toolCallId: "call_3" })).toMatchObject({ effect: "read", input: { n: "12" } });
    } finally {
      store.close();
    }
  });

  it("settles a crashed turn's calls on recovery: a lost result restored, a cut-off call in doubt and never re-run", async () => {
    const stateRoot = tmp();
    // What a process killed mid-turn leaves: two calls requested, the first returned (its result still buffered), the second running.
    const crashed = openStore(stateRoot);
    const session = crashed.sessions.create({ mode: "chat", channel: "http", principal: me });
    crashed.turns.create({ id: "turn_1", sessionId: session.id, status: "running", message: "pay both" });
    const first = { toolCallId: "call_a", name: "lookup_invoice", input: { invoice: "inv_1" } };
    const second = { toolCallId: "call_b", name: "pay_invoice", input: { invoice: "inv_1" } };
    crashed.events.append(session.id, [
      { type: "message.received", turnId: "turn_1", data: { message: "pay both" } },
      { type: "actions.requested", turnId: "turn_1", data: { actions: [first, second] } },
    ]);
    const key = (toolCallId: string) => ({ sessionId: session.id, turnId: "turn_1", toolCallId });
    crashed.toolCalls.start({ ...key("call_a"), name: first.name, effect: "read", input: first.input });
    crashed.toolCalls.finish(key("call_a"), { output: { due: 10 }, isError: false, durationMs: 1 });
    crashed.toolCalls.start({ ...key("call_b"), name: second.name, effect: "write", input: second.input });
    crashed.close();

    const { runtime, store } = start(stateRoot);
    runs = 0;
    expect(await runtime.recover()).toBe(1);
    const events = await runtime.reader.events(session.id, me);
    expect(events.map((event) => event.type).slice(-5)).toEqual(["actions.requested", "action.result", "action.in_doubt", "turn.failed", "session.waiting"]);
    expect(events.find((event) => event.type === "action.result")?.data).toEqual({ toolCallId: "call_a", name: "lookup_invoice", output: { due: 10 }, isError: false, durationMs: 1 });
    expect(events.find((event) => event.type === "action.in_doubt")?.data).toMatchObject({ toolCallId: "call_b", name: "pay_invoice", effect: "write", input: { invoice: "inv_1" } });
    expect(store.toolCalls.get(key("call_b"))?.status).toBe("in_doubt");
    expect((await runtime.inbox.listInDoubtCalls(me)).map((row) => row.toolCallId)).toEqual(["call_b"]);
    expect(await runtime.inbox.listInDoubtCalls({ type: "user", id: "someone-else" })).toEqual([]);

    // The model is told the call is in doubt; the turn after recovery never runs it.
    const tool = historyFromEvents(events).find((message) => message.role === "tool");
    expect(tool?.content).toEqual([
      expect.objectContaining({ toolCallId: "call_a", output: { type: "json", value: { due: 10 } } }),
      expect.objectContaining({ toolCallId: "call_b", output: { type: "error-text", value: expect.stringContaining("in doubt") } }),
    ]);
    expect(await runtime.recover()).toBe(0);
    expect(runs).toBe(0);
    // Once a person has checked the call, the model is told what they found, not that it is in doubt.
    const last = events.at(-1)!;
    const resolved = { ...last, index: last.index + 1, type: "action.in_doubt_resolved", data: { toolCallId: "call_b", name: second.name, resolution: "not_done", note: "no charge on the card", by: "user:local" } };
    const checked = historyFromEvents([...events, resolved] as typeof events).find((message) => message.role === "tool");
    expect(checked?.content).toEqual([
      expect.objectContaining({ toolCallId: "call_a" }),
      expect.objectContaining({
        toolCallId: "call_b",
        output: { type: "error-text", value: expect.stringMatching(/checked: it did not take effect.*no charge on the card/) },
      }),
    ]);
    // Only write calls go to the inbox: a read call in doubt is in the stream, not there.
    store.toolCalls.start({ ...key("call_c"), name: "lookup_invoice", effect: "read", input: {} });
    store.toolCalls.markInDoubt(key("call_c"));
    expect((await runtime.inbox.listInDoubtCalls(undefined)).map((row) => row.toolCallId)).toEqual(["call_b"]);
    // A deleted session's calls leave the inbox.
    store.sessions.softDelete(session.id);
    expect(await runtime.inbox.listInDoubtCalls(undefined)).toEqual([]);
  });
});
