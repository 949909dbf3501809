/**
 * Forks in process: the fork's model sees the source's history up to the cut,
 * then runs with its overrides (system prompt, model, tool stubs) while the
 * source and other sessions keep the agent as loaded.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { recordingModel, userTexts } from "../../test/support/recording-model.ts";
import { afterEach, expect, it } from "vitest";
import { z } from "zod";
import { startTestRuntime, type TestRuntime } from "../../test/support/runtime.ts";
import { testAgent, zodTool } from "../../test/support/tools.ts";
import type { AgentConfig } from "../load/types.ts";
import type { AnyBdkEvent } from "../protocol/events.ts";

const me = { type: "user" as const, id: "local" };
const opened: TestRuntime[] = [];
afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.close();
});

const systemOf = (prompt: LanguageModelV3Prompt) => prompt.filter((message) => message.role === "system").map((message) => message.content).join("\n");

function setUp() {
  const prompts: LanguageModelV3Prompt[] = [];
  const resolved: Pick<AgentConfig, "model" | "modelFallbacks">[] = [];
  let calls = 0;
  const price = zodTool("price", z.object({ sku: z.string() }), ({ sku }) => (calls++, { sku, price: 42 }));
  const test = startTestRuntime({
    stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-fork-")),
    agent: testAgent([price], { config: { model: "openai/gpt-5", modelFallbacks: ["anthropic/claude-sonnet-4"] } }),
    models: [{ id: "scripted", model: recordingModel(prompts) }],
    onResolve: (config) => resolved.push(config),
  });
  opened.push(test);
  return { test, prompts, resolved, toolCalls: () => calls };
}

it("runs the fork on the source's history before the cut, with its own instructions, model and tool stubs", async () => {
  const { test, prompts, resolved, toolCalls } = setUp();
  const source = await test.runtime.startSession({ message: "hello there", principal: me });
  await source.done;
  await (await test.runtime.followUp(source.sessionId, { message: 'run price {"sku":"A1"}', principal: me })).done;
  const cutAt = (await test.runtime.reader.events(source.sessionId, me)).filter((event) => event.type === "message.received")[1].index;
  expect(toolCalls()).toBe(1);
  prompts.length = 0;
  resolved.length = 0;

  const fork = await test.runtime.fork(source.sessionId, {
    principal: me,
    owner: me,
    at: { beforeIndex: cutAt },
    overrides: { instructions: "You answer in haiku.", model: "scripted", toolResults: { price: { output: { sku: "A1", price: 7 } } } },
  });
  const end = await fork.done;

  // The first message and its answer came along; the second is re-sent on the fork.
  expect(userTexts(prompts[0])).toEqual(["hello there", 'run price {"sku":"A1"}']);
  expect(systemOf(prompts[0])).toBe("You answer in haiku.");
  // Checked when the fork is asked for, then resolved by its turn.
  expect(resolved).toEqual([{ model: "scripted", modelFallbacks: [] }, { model: "scripted", modelFallbacks: [] }]);
  // The stub answered: the tool did not run again, and the model read the stubbed price.
  expect(toolCalls()).toBe(1);
  expect(end.status === "completed" && end.text).toContain("7");

  const forkEvents = await test.runtime.reader.events(fork.sessionId, me);
  expect(forkEvents.filter((event) => event.type === "action.result").at(-1)).toMatchObject({
    data: { name: "price", output: { sku: "A1", price: 7 }, isError: false, stubbed: true },
  });
  const sourceEvents = await test.runtime.reader.events(source.sessionId, me);
  expect(forkEvents.slice(1, cutAt).map(({ type, data }) => ({ type, data }))).toEqual(
    sourceEvents.slice(1, cutAt).map(({ type, data }) => ({ type, data })),
  );
  expect(forkEvents[0]).toMatchObject({ type: "session.started", data: { parentId: source.sessionId, forkedAt: cutAt } });
  // An inherited turn keeps its Trace content in the fork.
  const firstTurn = forkEvents.find((event) => event.type === "turn.started")!.turnId!;
  expect(await test.runtime.reader.turnTrace(fork.sessionId, firstTurn, me)).toMatchObject({ modelCalls: (await test.runtime.reader.turnTrace(source.sessionId, firstTurn, me)).modelCalls });
  expect((await test.runtime.reader.turnTrace(fork.sessionId, firstTurn, me)).modelCalls).toHaveLength(1);
  expect((await test.runtime.getSession(fork.sessionId, me)).fork).toEqual({
    parentId: source.sessionId,
    forkedAt: cutAt,
    overrides: expect.objectContaining({ instructions: "You answer in haiku." }),
  });

  // The source keeps the agent as loaded.
  prompts.length = 0;
  resolved.length = 0;
  await (await test.runtime.followUp(source.sessionId, { message: "again", principal: me })).done;
  expect(systemOf(prompts[0])).toContain("You are a test agent.");
  expect(resolved[0]).toMatchObject({ model: "openai/gpt-5" });
});

it("edit and resend: the fork answers the edited message, and params keep the agent's model", async () => {
  const { test, prompts, resolved } = setUp();
  const source = await test.runtime.startSession({ message: "first", principal: me });
  await source.done;
  const cutAt = (await test.runtime.reader.events(source.sessionId, me)).find((event) => event.type === "message.received")!.index;
  prompts.length = 0;
  resolved.length = 0;
  const fork = await test.runtime.fork(source.sessionId, {
    principal: me,
    owner: me,
    at: { beforeIndex: cutAt },
    message: "first, edited",
    overrides: { params: [{ id: "effort", value: "low" }] },
  });
  await fork.done;
  expect(userTexts(prompts[0])).toEqual(["first, edited"]);
  const withParams = { model: { id: "openai/gpt-5", params: [{ id: "effort", value: "low" }] }, modelFallbacks: ["anthropic/claude-sonnet-4"] };
  expect(resolved).toEqual([withParams, withParams]);
});

it("refuses a cut that is not a user message, a stub of an unknown tool, and another principal", async () => {
  const { test } = setUp();
  const source = await test.runtime.startSession({ message: "hello", principal: me });
  await source.done;
  await expect(test.runtime.fork(source.sessionId, { principal: me, owner: me, at: { beforeIndex: 0 } })).rejects.toThrow(
    /beforeIndex 0 is not a user message .* \(indexes 1\)/,
  );
  await expect(
    test.runtime.fork(source.sessionId, { principal: me, owner: me, at: { beforeIndex: 1 }, overrides: { toolResults: { pricee: { output: 1 } } } }),
  ).rejects.toThrow(/no tool named "pricee"/);
  const other = { type: "user" as const, id: "mallory" };
  await expect(test.runtime.fork(source.sessionId, { principal: other, owner: other, at: { beforeIndex: 1 } })).rejects.toThrow(/another principal/);
  expect((await test.runtime.listSessions({})).sessions).toHaveLength(1);
});

/** A source whose one turn called `price` (the real tool: 42), and the index of each of its events by type. */
async function toolTurnSource() {
  const setup = setUp();
  const source = await setup.test.runtime.startSession({ message: 'run price {"sku":"A1"}', principal: me });
  await source.done;
  const events = await setup.test.runtime.reader.events(source.sessionId, me);
  const indexOf = (type: string) => events.find((event) => event.type === type)!.index;
  setup.prompts.length = 0;
  return { ...setup, sourceId: source.sessionId, sourceEvents: events, indexOf };
}

it("fork after actions.requested: the fork resumes that step, its calls answered by the stub, and the turn goes on", async () => {
  const { test, prompts, toolCalls, sourceId, sourceEvents, indexOf } = await toolTurnSource();
  const cutAfter = indexOf("actions.requested");
  const fork = await test.runtime.fork(sourceId, {
    principal: me,
    owner: me,
    at: { afterIndex: cutAfter },
    overrides: { toolResults: { price: { output: { sku: "A1", price: 7 } } } },
  });
  const end = await fork.done;
  expect(end.status === "completed" && end.text).toContain("7");
  expect(toolCalls()).toBe(1);
  // One model call: the one after the stubbed result; the step that asked for the tool is not asked again.
  expect(prompts).toHaveLength(1);
  expect(userTexts(prompts[0])).toEqual(['run price {"sku":"A1"}']);

  const events = await test.runtime.reader.events(fork.sessionId, me);
  expect(events.slice(1, cutAfter + 1).map(({ type, data }) => ({ type, data }))).toEqual(sourceEvents.slice(1, cutAfter + 1).map(({ type, data }) => ({ type, data })));
  // One turn: the inherited part of the cut turn and what the fork ran carry the fork's turn id.
  expect(new Set(events.filter((event) => event.turnId).map((event) => event.turnId))).toEqual(new Set([fork.turnId]));
  expect(events.filter((event) => event.type === "turn.started")).toHaveLength(1);
  expect(events.slice(cutAfter + 1).map((event) => event.type)).toEqual(
    expect.arrayContaining(["action.result", "step.completed", "step.started", "message.completed", "turn.completed"]),
  );
  expect(events.find((event) => event.index > cutAfter && event.type === "action.result")).toMatchObject({ data: { output: { sku: "A1", price: 7 }, stubbed: true } });
  expect(events[0]).toMatchObject({ data: { parentId: sourceId, forkedAt: indexOf("message.received"), cutAfter } });
  // The Trace content came along: the inherited step 0 as the source's model answered it, then the fork's own step 1.
  const trace = await test.runtime.reader.turnTrace(fork.sessionId, fork.turnId, me);
  const sourceTurnId = sourceEvents.find((event) => event.type === "turn.started")!.turnId!;
  const sourceStep0 = (await test.runtime.reader.turnTrace(sourceId, sourceTurnId, me)).modelCalls[0];
  expect(trace.modelCalls.map((call) => call.step)).toEqual([0, 1]);
  expect(trace.modelCalls[0]).toEqual({ ...sourceStep0, turnId: fork.turnId });
  expect(trace.modelCalls[1].request.system).toContain("You are a test agent.");
  expect((await test.runtime.getSession(fork.sessionId, me)).fork).toMatchObject({ parentId: sourceId, forkedAt: indexOf("message.received") });
});

it("fork after any other event inside a turn: the model continues from the history up to it", async () => {
  const { test, prompts, toolCalls, sourceId, indexOf } = await toolTurnSource();
  const cutAfter = indexOf("action.result");
  const fork = await test.runtime.fork(sourceId, { principal: me, owner: me, at: { afterIndex: cutAfter }, overrides: { instructions: "Be brief." } });
  const end = await fork.done;
  // The tool's inherited result is in the history: nothing runs again, and the model reads 42.
  expect(toolCalls()).toBe(1);
  expect(end.status === "completed" && end.text).toContain("42");
  expect(prompts).toHaveLength(1);
  expect(systemOf(prompts[0])).toBe("Be brief.");
  expect(prompts[0].map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
  const events = await test.runtime.reader.events(fork.sessionId, me);
  expect(events.filter((event) => event.type === "step.started").map((event) => event.data)).toEqual([{ step: 0 }, { step: 1 }]);
  expect(events.filter((event) => event.type === "turn.started")).toHaveLength(1);
  const trace = await test.runtime.reader.turnTrace(fork.sessionId, fork.turnId, me);
  expect(trace.modelCalls.map((call) => [call.step, call.request.system])).toEqual([
    [0, expect.stringContaining("You are a test agent.")],
    [1, "Be brief."],
  ]);
});

it("refuses a cut after a turn's end or outside a turn, and an edited message on a cut inside a turn", async () => {
  const { test, sourceId, indexOf } = await toolTurnSource();
  for (const afterIndex of [indexOf("turn.completed"), indexOf("session.started"), indexOf("message.received"), 999]) {
    await expect(test.runtime.fork(sourceId, { principal: me, owner: me, at: { afterIndex } })).rejects.toThrow(
      new RegExp(`afterIndex ${afterIndex} is not an event inside a turn of session ${sourceId}: .* beforeIndex with a message index \\(1\\)`),
    );
  }
  await expect(test.runtime.fork(sourceId, { principal: me, owner: me, at: { afterIndex: indexOf("actions.requested") }, message: "edited" })).rejects.toThrow(
    /message is for a fork before a user message/,
  );
  expect((await test.runtime.listSessions({})).sessions).toHaveLength(1);
});

it("refuses a cut at or after a turn's final answer, naming the event and the message to fork before", async () => {
  const { test, sourceId, sourceEvents, indexOf } = await toolTurnSource();
  const answer = sourceEvents.findLast((event) => event.type === "message.completed")!.index;
  for (const afterIndex of [answer, answer + 1]) {
    await expect(test.runtime.fork(sourceId, { principal: me, owner: me, at: { afterIndex } })).rejects.toThrow(
      `afterIndex ${afterIndex} comes after the final answer of its turn in session ${sourceId}: a fork there has nothing left to run; to have the turn answered again, send beforeIndex ${indexOf("message.received")}`,
    );
  }
  expect((await test.runtime.listSessions({})).sessions).toHaveLength(1);
});

it("a cut after the source's approval of a call: the fork asks for its own approval before the call runs there, and keeps it across a restart", async () => {
  const submitted: string[] = [];
  const submit = zodTool("submit_review", z.object({ prUrl: z.string() }), ({ prUrl }) => (submitted.push(prUrl), { submitted: true }), {
    needsApproval: async () => true,
  });
  const stateRoot = mkdtempSync(path.join(tmpdir(), "bdk-fork-"));
  const test = startTestRuntime({ stateRoot, agent: testAgent([submit]) });
  let { runtime } = test;
  const untilEvent = (sessionId: string, type: string) =>
    new Promise<AnyBdkEvent>((resolve) => {
      void runtime.reader.followUntil(sessionId, me, 0, (event) => (event.type === type ? (resolve(event), true) : false));
    });
  const source = await runtime.startSession({ message: "submit_review https://x.test/pr/1", principal: me });
  const asked = await untilEvent(source.sessionId, "action.approval_requested");
  await runtime.inbox.resolveApproval(source.sessionId, (asked.data as { approvalId: string }).approvalId, { approved: true }, me);
  await source.done;
  const resolvedAt = (await runtime.reader.events(source.sessionId, me)).find((event) => event.type === "action.approval_resolved")!.index;

  const fork = await runtime.fork(source.sessionId, { principal: me, owner: me, at: { afterIndex: resolvedAt } });
  // The source's approval does not carry over: the fork parks on its own, and the call has not run there yet.
  await expect.poll(async () => (await runtime.inbox.listApprovals(me)).length, { message: "the fork asked" }).toBe(1);
  // The process dies with the fork's turn parked; the next one resumes it from the fork's own events.
  test.store.close();
  const restarted = startTestRuntime({ stateRoot, agent: testAgent([submit]) });
  opened.push(restarted);
  runtime = restarted.runtime;
  await runtime.recover();
  const pending = await runtime.inbox.listApprovals(me);
  expect(pending.map((approval) => approval.sessionId)).toEqual([fork.sessionId]);
  expect(pending[0].id).not.toBe((asked.data as { approvalId: string }).approvalId);
  expect(submitted).toHaveLength(1);
  await runtime.inbox.resolveApproval(fork.sessionId, pending[0].id, { approved: true }, me);
  await runtime.idle(fork.sessionId);
  expect(submitted).toHaveLength(2);
  expect((await runtime.getSession(fork.sessionId, me)).status).toBe("waiting");
  const events = await runtime.reader.events(fork.sessionId, me);
  expect(events.filter((event) => event.index > resolvedAt).map((event) => event.type)).toEqual(
    expect.arrayContaining(["action.approval_requested", "action.approval_resolved", "action.result", "turn.completed"]),
  );
  expect(events.filter((event) => event.type === "turn.completed").map((event) => event.turnId)).toEqual([fork.turnId]);
});

it("a Stop between a fork's acceptance and its first turn's start stops that turn: the cut step's call never runs", async () => {
  const { test, toolCalls, sourceId, indexOf } = await toolTurnSource();
  let done: Promise<unknown> | undefined;
  // In a caller's transaction the fork's turn cannot start before it commits: the Stop comes in between.
  await test.runtime.store.transaction(async () => {
    const fork = await test.runtime.fork(sourceId, { principal: me, owner: me, at: { afterIndex: indexOf("actions.requested") } });
    done = fork.done;
    expect(await test.runtime.stop(fork.sessionId, me)).toBe("stopping");
  });
  expect(await done).toMatchObject({ status: "cancelled", code: "cancelled", message: "The turn was stopped." });
  expect(toolCalls()).toBe(1);
});

/** A write call cut off by a crash, after recovery: the source session holds it in doubt; `runs()` counts the tool's runs. */
async function inDoubtSource() {
  let runs = 0;
  // The first run never returns: the process dies during it.
  const pay = zodTool("pay_invoice", z.object({ invoice: z.string() }), () => (runs++ === 0 ? new Promise<never>(() => {}) : { paid: true }), { effect: () => "write" });
  const stateRoot = mkdtempSync(path.join(tmpdir(), "bdk-fork-"));
  const crashed = startTestRuntime({ stateRoot, agent: testAgent([pay]) });
  const source = await crashed.runtime.startSession({ message: 'pay_invoice {"invoice": "inv_1"}', principal: me });
  await expect.poll(() => runs, { message: "the call started" }).toBe(1);
  crashed.store.close();
  const prompts: LanguageModelV3Prompt[] = [];
  const restarted = startTestRuntime({ stateRoot, agent: testAgent([pay]), models: [{ id: "scripted", model: recordingModel(prompts) }] });
  opened.push(restarted);
  await restarted.runtime.recover();
  return { restarted, prompts, source, runs: () => runs };
}

it("a cut after a call in doubt: the fork counts it answered by its in-doubt result and never runs it again", async () => {
  const { restarted, prompts, source, runs } = await inDoubtSource();
  const inDoubt = (await restarted.runtime.reader.events(source.sessionId, me)).find((event) => event.type === "action.in_doubt")!;
  expect(inDoubt).toBeDefined();

  const fork = await restarted.runtime.fork(source.sessionId, { principal: me, owner: me, at: { afterIndex: inDoubt.index } });
  expect((await fork.done).status).toBe("completed");
  expect(runs()).toBe(1);
  const events = await restarted.runtime.reader.events(fork.sessionId, me);
  expect(events.filter((event) => event.index > inDoubt.index && event.type === "action.result")).toEqual([]);
  // The model read the in-doubt answer for that call.
  const toolMessage = prompts[0].find((message) => message.role === "tool");
  expect(JSON.stringify(toolMessage)).toContain("is in doubt");
});

it("a cut after a step's last tool result: the fork closes that step before the model goes on", async () => {
  const { test, prompts, toolCalls, sourceId, indexOf } = await toolTurnSource();
  const fork = await test.runtime.fork(sourceId, { principal: me, owner: me, at: { afterIndex: indexOf("action.result") } });
  await fork.done;
  expect(toolCalls()).toBe(1);
  expect(prompts).toHaveLength(1);
  const events = await test.runtime.reader.events(fork.sessionId, me);
  // Every step the fork's log opens, it also closes: step 0's step.completed comes before step 1 starts.
  const steps = events.filter((event) => event.type === "step.started" || event.type === "step.completed").map((event) => `${event.type} ${(event.data as { step: number }).step}`);
  expect(steps).toEqual(["step.started 0", "step.completed 0", "step.started 1", "step.completed 1"]);
});

it("a cut inside a step before its tools ran: the fork closes that step (finishReason cut) and calls the model at the next", async () => {
  const { test, toolCalls, sourceId, indexOf } = await toolTurnSource();
  const stepStarted = indexOf("step.started");
  const fork = await test.runtime.fork(sourceId, { principal: me, owner: me, at: { afterIndex: stepStarted } });
  await fork.done;
  const events = await test.runtime.reader.events(fork.sessionId, me);
  expect(events.find((event) => event.index === stepStarted + 1)).toMatchObject({ type: "step.completed", turnId: fork.turnId, data: { step: 0, finishReason: "cut" } });
  const steps = events.filter((event) => event.type === "step.started" || event.type === "step.completed").map((event) => `${event.type} ${(event.data as { step: number }).step}`);
  expect(steps.slice(0, 3)).toEqual(["step.started 0", "step.completed 0", "step.started 1"]);
  expect(steps.filter((step) => step.startsWith("step.started")).length).toBe(steps.filter((step) => step.startsWith("step.completed")).length);
  // The model asks for the tool again at step 1, where the fork runs it.
  expect(toolCalls()).toBe(2);
});

it("a cut inside a step before its model answered: the fork does not inherit the source's record of that step", async () => {
  const { test, sourceId, sourceEvents } = await toolTurnSource();
  const secondStep = sourceEvents.find((event) => event.type === "step.started" && event.data.step === 1)!.index;
  const fork = await test.runtime.fork(sourceId, { principal: me, owner: me, at: { afterIndex: secondStep + 1 } });
  await fork.done;
  const trace = await test.runtime.reader.turnTrace(fork.sessionId, fork.turnId, me);
  const events = await test.runtime.reader.events(fork.sessionId, me);
  // Each record's reply is one the fork's log holds: step 1's answer in the source was cut off (the fork closes it as "cut"), so its record stays there.
  const stepsAnswered = events
    .filter((event) => event.type === "step.completed" && event.data.finishReason !== "cut")
    .map((event) => (event.data as { step: number }).step);
  expect(trace.modelCalls.map((call) => call.step)).toEqual(stepsAnswered);
});

it("a cut after a subagent ended but before its task call's result: the fork runs the subagent again and its Trace shows that run", async () => {
  const agent = testAgent([], { subagents: [{ id: "researcher", description: "Looks things up", instructions: "You research.", config: {}, file: "x" }] });
  const test = startTestRuntime({ stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-fork-")), agent });
  opened.push(test);
  const source = await test.runtime.startSession({ message: 'task {"subagent": "researcher", "prompt": "find the answer"}', principal: me });
  await source.done;
  const sourceEvents = await test.runtime.reader.events(source.sessionId, me);
  const completed = sourceEvents.find((event) => event.type === "subagent.completed")!;
  const scope = (completed.data as { toolCallId: string }).toolCallId;
  // The source's subagent records and the fork's run of it differ by when they started.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const fork = await test.runtime.fork(source.sessionId, { principal: me, owner: me, at: { afterIndex: completed.index } });
  await fork.done;
  const events = await test.runtime.reader.events(fork.sessionId, me);
  const rerun = events.findLast((event) => event.type === "subagent.called")!;
  expect(rerun.index).toBeGreaterThan(completed.index);
  const child = (await test.runtime.reader.turnTrace(fork.sessionId, fork.turnId, me)).modelCalls.filter((call) => call.scope === scope);
  expect(child.length).toBeGreaterThanOrEqual(1);
  // Each started after the source's subagent had ended: they are the fork's run, not the source's copied.
  for (const call of child) expect(Date.parse(call.startedAt)).toBeGreaterThan(Date.parse(completed.at));
});

it("a fork of a fork cut inside a turn, cut at a message: its session.started says where it was cut, not where its source was", async () => {
  const { test, sourceId, indexOf } = await toolTurnSource();
  const first = await test.runtime.fork(sourceId, { principal: me, owner: me, at: { afterIndex: indexOf("action.result") } });
  await first.done;
  const second = await test.runtime.fork(first.sessionId, { principal: me, owner: me, at: { beforeIndex: indexOf("message.received") } });
  await second.done;
  const [started] = await test.runtime.reader.events(second.sessionId, me);
  expect(started.data).toMatchObject({ parentId: first.sessionId, forkedAt: indexOf("message.received") });
  expect(started.data).not.toHaveProperty("cutAfter");
});

it("a cut right after a checked call in doubt: the fork picks its turn up with what the person found, and never runs the call", async () => {
  const { restarted, prompts, source, runs } = await inDoubtSource();
  // The conversation went on before anyone checked the call: the check is recorded after a later turn.
  await (await restarted.runtime.followUp(source.sessionId, { message: "anything else?", principal: me })).done;
  const { toolCallId } = (await restarted.runtime.reader.events(source.sessionId, me)).find((event) => event.type === "action.in_doubt")!.data as { toolCallId: string };
  await restarted.runtime.inbox.resolveInDoubt(source.sessionId, toolCallId, { resolution: "done", note: "paid on the bank's site" }, me);
  const checked = (await restarted.runtime.reader.events(source.sessionId, me)).findLast((event) => event.type === "action.in_doubt_resolved")!;
  prompts.length = 0;

  const fork = await restarted.runtime.fork(source.sessionId, { principal: me, owner: me, at: { afterIndex: checked.index } });
  const end = await fork.done;
  expect(end).toMatchObject({ status: "completed", text: expect.stringContaining("it took effect") });
  expect(runs(), "the call in doubt never ran again").toBe(1);
  // The model read the person's check as that call's answer, and nothing of the source after the turn ended.
  expect(userTexts(prompts[0])).toEqual(['pay_invoice {"invoice": "inv_1"}']);
  const answer = JSON.stringify(prompts[0].find((message) => message.role === "tool"));
  expect(answer).toContain("user:local has since checked: it took effect; do not repeat it. Their note: paid on the bank's site");
  expect(answer).not.toContain("is in doubt");

  // The fork's log is one turn that ends once, completed: the source's interrupted end is not inherited.
  const events = await restarted.runtime.reader.events(fork.sessionId, me);
  expect(events.filter((event) => event.type === "message.received").map((event) => event.data.message)).toEqual(['pay_invoice {"invoice": "inv_1"}']);
  expect(events.filter((event) => event.type === "turn.failed" || event.type === "turn.completed").map((event) => event.type)).toEqual(["turn.completed"]);
  expect(events.filter((event) => event.type === "action.result")).toEqual([]);
  expect(events.find((event) => event.type === "action.in_doubt_resolved")?.data).toMatchObject({ toolCallId, resolution: "done", by: "user:local" });
});
