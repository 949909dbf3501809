import { mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { startTestRuntime } from "../../test/support/runtime.ts";
import { testAgent, zodTool } from "../../test/support/tools.ts";
import type { ResolvedAgent } from "../load/types.ts";
import type { AnyBdkEvent } from "../protocol/events.ts";
import type { Store } from "../store/index.ts";
import { SessionRuntime } from "./session-runtime.ts";

const me = { type: "user" as const, id: "local" };
const stranger = { type: "service" as const, id: "bearer-0000" };
const opened: Array<{ runtime: SessionRuntime; store: Store }> = [];

function start(stateRoot: string, agent: ResolvedAgent = testAgent([inspect]), stepDelayMs = 0) {
  const { runtime, store } = startTestRuntime({ stateRoot, agent, stepDelayMs });
  opened.push({ runtime, store });
  return { runtime, store };
}

const inspect = zodTool("inspect_pr", z.object({ prUrl: z.string() }), ({ prUrl }) => ({ prUrl, complexity: "trivial" }));
const counter = zodTool("count_visits", z.object({}), async (_input, ctx) => {
  const seen = ((await ctx.host.kv.get("visits")) as number | undefined) ?? 0;
  await ctx.host.kv.put("visits", seen + 1);
  return { visits: seen + 1 };
});

const tmp = () => mkdtempSync(path.join(tmpdir(), "bdk-sessions-"));
const types = (events: AnyBdkEvent[]) => events.map((event) => event.type);

afterEach(async () => {
  for (const { runtime, store } of opened.splice(0)) {
    await runtime.close();
    store.close();
  }
});

describe("SessionRuntime", () => {
  it("records a whole turn with gap-free indexes and waits for follow-ups", async () => {
    const { runtime } = start(tmp());
    const handle = await runtime.startSession({ message: "Inspect https://github.com/acme/checkout/pull/42", principal: me });
    const end = await handle.done;
    expect(end.status).toBe("completed");
    const events = await runtime.reader.events(handle.sessionId, me);
    expect(events.map((event) => event.index)).toEqual(events.map((_, i) => i));
    expect(types(events).slice(0, 3)).toEqual(["session.started", "message.received", "turn.started"]);
    expect(types(events).slice(-2)).toEqual(["turn.completed", "session.waiting"]);
    expect(await runtime.getSession(handle.sessionId, me)).toMatchObject({ status: "waiting", mode: "chat" });
  });

  it("rotates nothing in-process but refuses a stale token and task follow-ups", async () => {
    const { runtime } = start(tmp());
    const chat = await runtime.startSession({ message: "hello", principal: me });
    await chat.done;
    const next = await runtime.followUp(chat.sessionId, {
      message: "again",
      principal: me,
      continuationToken: chat.continuationToken,
      rotateToken: true,
    });
    expect(next.continuationToken).not.toBe(chat.continuationToken);
    await next.done;
    await expect(runtime.followUp(chat.sessionId, { message: "x", principal: me, continuationToken: chat.continuationToken })).rejects.toMatchObject({
      code: "stale_token",
    });

    const task = await runtime.startSession({ message: "hello", principal: me, mode: "task" });
    await task.done;
    expect(types(await runtime.reader.events(task.sessionId, me)).at(-1)).toBe("session.completed");
    await expect(runtime.followUp(task.sessionId, { message: "x", principal: me })).rejects.toMatchObject({ code: "task_session" });
  });

  it("keeps a channel's own token when a follow-up asks to rotate it", async () => {
    const { runtime, store } = start(tmp());
    const token = "pr:acme/checkout#42";
    const started = await runtime.startSession({ message: "hello", principal: me, channel: "github", continuationToken: token });
    await started.done;
    const next = await runtime.followUp(started.sessionId, { message: "again", principal: me, continuationToken: token, rotateToken: true });
    expect(next.continuationToken).toBe(token);
    await next.done;
    expect(store.sessions.get(started.sessionId)?.continuationToken).toBe(token);
  });

  it("lays workspaces out under local.cwd, or in local.workspaceDir, relative to the project root", async () => {
    const root = tmp();
    const underCwd = start(tmp(), testAgent([inspect], { rootDir: root, config: { local: { cwd: "sandboxes" } } })).runtime;
    const one = await underCwd.startSession({ message: "hello", principal: me, workspaceFiles: { "notes/a.txt": "in cwd" } });
    await one.done;
    expect(readFileSync(path.join(root, "sandboxes", one.sessionId, "notes/a.txt"), "utf8")).toBe("in cwd");

    const shared = start(tmp(), testAgent([inspect], { rootDir: root, config: { local: { workspaceDir: "shared-ws" } } })).runtime;
    const two = await shared.startSession({ message: "hello", principal: me, workspaceFiles: { "b.txt": "shared" } });
    await two.done;
    expect(readFileSync(path.join(root, "shared-ws", "b.txt"), "utf8")).toBe("shared");
  });

  it("refuses workspace files that escape a chosen directory through a symlink, before the session exists", async () => {
    const { runtime, store } = start(tmp());
    const worktree = tmp();
    const outside = tmp();
    symlinkSync(outside, path.join(worktree, "out"));
    await expect(runtime.startSession({ message: "hello", principal: me, workspaceDir: worktree, workspaceFiles: { "out/x.txt": "x" } })).rejects.toMatchObject({
      code: "invalid_request",
      message: expect.stringContaining('"out/x.txt"'),
    });
    expect(store.sessions.list({}).sessions).toEqual([]);
  });

  it("deletes a session while its turn runs: the turn ends quietly, nothing is recorded after", async () => {
    const { runtime, store } = start(tmp(), testAgent([inspect]), 200);
    const running = await runtime.startSession({ message: "hello", principal: me });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await runtime.deleteSession(running.sessionId, me);
    await expect(running.done).resolves.toMatchObject({ status: "cancelled" });
    await runtime.idle(running.sessionId);
    expect(store.sessions.get(running.sessionId)).toBeUndefined();
    expect(store.events.list(running.sessionId)).toEqual([]);
  });

  it("ends a wait for an event with not_found when the session is deleted before it comes", async () => {
    const { runtime } = start(tmp(), testAgent([inspect]), 200);
    const running = await runtime.startSession({ message: "hello", principal: me });
    const waiting = runtime.reader.followUntil(running.sessionId, me, 0, (event) => event.type === "turn.completed");
    await new Promise((resolve) => setTimeout(resolve, 50));
    await runtime.deleteSession(running.sessionId, me);
    await expect(waiting).rejects.toMatchObject({ code: "not_found", message: expect.stringContaining(running.sessionId) });
  });

  it("forbids another principal every session operation", async () => {
    const { runtime } = start(tmp());
    const handle = await runtime.startSession({ message: "hello", principal: me });
    await handle.done;
    for (const attempt of [
      () => runtime.getSession(handle.sessionId, stranger),
      () => runtime.reader.events(handle.sessionId, stranger),
      () => runtime.stop(handle.sessionId, stranger),
      () => runtime.followUp(handle.sessionId, { message: "x", principal: stranger }),
      () => runtime.reader.follow(handle.sessionId, stranger, 0, () => {}),
      () => runtime.deleteSession(handle.sessionId, stranger),
    ]) {
      // Message acceptance is synchronous (it joins its caller's transaction); every other call is asynchronous.
      await expect(async () => attempt()).rejects.toThrow(expect.objectContaining({ code: "forbidden" }));
    }
  });

  it("stops a running turn as cancelled and preempts it with a follow-up", async () => {
    const { runtime } = start(tmp(), testAgent([inspect]), 300);
    const first = await runtime.startSession({ message: "hello", principal: me });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await runtime.stop(first.sessionId, me)).toBe("stopping");
    expect(await first.done).toMatchObject({ status: "cancelled", code: "cancelled" });

    const second = await runtime.followUp(first.sessionId, { message: "one", principal: me });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const third = await runtime.followUp(first.sessionId, { message: "two", principal: me });
    expect(await second.done).toMatchObject({ status: "cancelled", code: "preempted" });
    expect(await third.done).toMatchObject({ status: "completed" });
    const failed = (await runtime.reader.events(first.sessionId, me)).filter((event) => event.type === "turn.failed");
    expect(failed.map((event) => event.data)).toEqual([
      expect.objectContaining({ status: "cancelled" }),
      expect.objectContaining({ status: "cancelled" }),
    ]);
    expect(await runtime.stop(first.sessionId, me)).toBe("idle");
  });

  it("withdraws what a caller's transaction that rolls back accepted: a new session, or a follow-up's turn, never runs", async () => {
    let turnsRun = 0;
    const test = startTestRuntime({ stateRoot: tmp(), agent: testAgent([inspect]), onResolve: () => turnsRun++ });
    opened.push(test);
    const { runtime, store } = test;
    let startedId = "";
    await expect(
      runtime.store.transaction(async () => {
        startedId = (await runtime.startSession({ message: "hello", principal: me })).sessionId;
        throw new Error("the delivery id could not be recorded");
      }),
    ).rejects.toThrow("the delivery id could not be recorded");
    expect(store.sessions.list({}).sessions).toEqual([]);
    expect(store.events.list(startedId)).toEqual([]);

    const session = await runtime.startSession({ message: "hello", principal: me });
    expect(await session.done).toMatchObject({ status: "completed" });
    let withdrawn = "";
    await expect(
      runtime.store.transaction(async () => {
        withdrawn = (await runtime.followUp(session.sessionId, { message: "again", principal: me })).turnId;
        throw new Error("the idempotency key could not be stored");
      }),
    ).rejects.toThrow("the idempotency key could not be stored");
    await runtime.idle(session.sessionId);
    expect(turnsRun).toBe(1);
    expect(store.turns.get(withdrawn)).toBeUndefined();
    expect(types(await runtime.reader.events(session.sessionId, me)).filter((type) => type === "message.received")).toHaveLength(1);
    // The session goes on.
    const next = await runtime.followUp(session.sessionId, { message: "and again", principal: me });
    expect(await next.done).toMatchObject({ status: "completed" });
    expect(turnsRun).toBe(2);
  });

  it("takes a follow-up whose transaction rolls back out of the waiting turn it joined, and it preempts nothing", async () => {
    const { runtime, store } = start(tmp(), testAgent([inspect]), 300);
    const first = await runtime.startSession({ message: "hello", principal: me });
    await runtime.reader.followUntil(first.sessionId, me, 0, (event) => event.type === "turn.started");
    const waiting = await runtime.followUp(first.sessionId, { message: "one", principal: me, admission: "coalesce" });
    await expect(
      runtime.store.transaction(async () => {
        await runtime.followUp(first.sessionId, { message: "two", principal: me, admission: "preempt" });
        throw new Error("the idempotency key could not be stored");
      }),
    ).rejects.toThrow("the idempotency key could not be stored");
    expect(await first.done).toMatchObject({ status: "completed" });
    expect(await waiting.done).toMatchObject({ status: "completed" });
    const received = (await runtime.reader.events(first.sessionId, me)).filter((event) => event.type === "message.received");
    expect(received.map((event) => (event.data as { message: string }).message)).toEqual(["hello", "one"]);
    expect(store.turns.get(waiting.turnId)?.message).toBe("one");
  });

  it("follows a session from the middle, then live, each event exactly once", async () => {
    const { runtime } = start(tmp(), testAgent([inspect]), 20);
    const handle = await runtime.startSession({ message: "Inspect https://x.test/pr/1", principal: me });
    const seen: number[] = [];
    await new Promise((resolve) => setTimeout(resolve, 5));
    const stop = await runtime.reader.follow(handle.sessionId, me, 1, (events) => seen.push(...events.map((event) => event.index)));
    await handle.done;
    stop();
    const last = (await runtime.getSession(handle.sessionId, me)).lastIndex;
    expect(seen).toEqual(Array.from({ length: last }, (_, i) => i + 1));
  });

  it("ends a turn interrupted by a crash and keeps indexes going after restart", async () => {
    const root = tmp();
    const first = start(root);
    const done = await first.runtime.startSession({ message: "hello", principal: me });
    await done.done;
    // A turn the previous process left running:
    first.store.turns.create({
      id: "turn_crashed",
      sessionId: done.sessionId,
      status: "running",
      message: "lost",
      botVersion: "v",
      createdAt: new Date().toISOString(),
    });
    const lastBefore = first.store.events.lastIndex(done.sessionId);
    first.store.close();
    opened.splice(0);

    const second = start(root);
    expect(await second.runtime.recover()).toBe(1);
    const events = await second.runtime.reader.events(done.sessionId, me);
    expect(events.map((event) => event.index)).toEqual(events.map((_, i) => i));
    expect(events.slice(lastBefore + 1).map((event) => [event.type, event.data])).toEqual([
      ["turn.failed", expect.objectContaining({ status: "interrupted" })],
      ["session.waiting", {}],
    ]);
    const again = await second.runtime.followUp(done.sessionId, { message: "still there?", principal: me });
    expect(await again.done).toMatchObject({ status: "completed" });
  });

  it("keeps host.kv per agent across a restart", async () => {
    const root = tmp();
    const agent = testAgent([counter]);
    const first = start(root, agent);
    expect((await first.runtime.tools.callTool("count_visits", {}, { principal: me })).output).toEqual({ visits: 1 });
    first.store.close();
    opened.splice(0);
    const second = start(root, agent);
    expect((await second.runtime.tools.callTool("count_visits", {}, { principal: me })).output).toEqual({ visits: 2 });
  });

  it("queues turns past maxRunningTurns with turn.queued", async () => {
    const agent = testAgent([inspect], { config: { concurrency: { maxRunningTurns: 1 } } });
    const { runtime } = start(tmp(), agent, 400);
    const a = await runtime.startSession({ message: "hello", principal: me });
    const b = await runtime.startSession({ message: "hello", principal: me });
    await Promise.all([a.done, b.done]);
    // Whichever turn took the slot first, the other one waited for it.
    const queued = (await Promise.all([a, b].map((handle) => runtime.reader.events(handle.sessionId, me)))).flatMap((events) =>
      events.filter((event) => event.type === "turn.queued"),
    );
    expect(queued.map((event) => event.data)).toEqual([{ position: 1 }]);
  });
});

describe("approvals", () => {
  const approve = zodTool(
    "submit_review",
    z.object({ prUrl: z.string() }),
    ({ prUrl }) => ({ submitted: true, prUrl }),
    { needsApproval: async () => true, needsApprovalLabel: true },
  );
  const untilEvent = (runtime: SessionRuntime, sessionId: string, type: string) =>
    new Promise<AnyBdkEvent>((resolve) => {
      void runtime.reader.followUntil(sessionId, me, 0, (event) => {
        if (event.type !== type) return false;
        resolve(event);
        return true;
      });
    });

  it("parks the call until approved, then runs it and finishes the turn", async () => {
    const { runtime } = start(tmp(), testAgent([approve]));
    const handle = await runtime.startSession({ message: "submit_review https://x.test/pr/1", principal: me });
    const parked = await untilEvent(runtime, handle.sessionId, "action.approval_requested");
    const { approvalId } = parked.data as { approvalId: string };
    expect((await runtime.inbox.listApprovals(me)).map((row) => row.id)).toEqual([approvalId]);
    await expect(runtime.inbox.resolveApproval(handle.sessionId, approvalId, { approved: true }, stranger)).rejects.toThrow(
      expect.objectContaining({ code: "forbidden" }),
    );
    await runtime.inbox.resolveApproval(handle.sessionId, approvalId, { approved: true }, me);
    expect(await handle.done).toMatchObject({ status: "completed" });
    const result = (await runtime.reader.events(handle.sessionId, me)).find((event) => event.type === "action.result");
    expect(result?.data).toMatchObject({ isError: false, output: { submitted: true } });
    await expect(runtime.inbox.resolveApproval(handle.sessionId, approvalId, { approved: false }, me)).rejects.toThrow(
      expect.objectContaining({ code: "already_resolved" }),
    );
    expect(await runtime.inbox.listApprovals(me)).toEqual([]);
  });

  it("returns a denial to the model naming who denied and why", async () => {
    const { runtime } = start(tmp(), testAgent([approve]));
    const handle = await runtime.startSession({ message: "submit_review https://x.test/pr/2", principal: me });
    const parked = await untilEvent(runtime, handle.sessionId, "action.approval_requested");
    await runtime.inbox.resolveApproval(
      handle.sessionId,
      (parked.data as { approvalId: string }).approvalId,
      { approved: false, reason: "not on Fridays" },
      me,
    );
    await handle.done;
    const result = (await runtime.reader.events(handle.sessionId, me)).find((event) => event.type === "action.result");
    expect(result?.data).toMatchObject({ isError: true });
    expect(String((result?.data as { output: unknown }).output)).toMatch(/denied by user:local: not on Fridays/);
  });

  it("logs a denial with the ids of the call it refused, whether a person or a stop denied it", async () => {
    const { runtime, store } = start(tmp(), testAgent([approve]));
    const denied = await runtime.startSession({ message: "submit_review https://x.test/pr/4", principal: me });
    const first = (await untilEvent(runtime, denied.sessionId, "action.approval_requested")) as AnyBdkEvent & { turnId: string };
    const { approvalId, toolCallId } = first.data as { approvalId: string; toolCallId: string };
    await runtime.inbox.resolveApproval(denied.sessionId, approvalId, { approved: false, reason: "not on Fridays" }, me);
    await denied.done;
    const stopped = await runtime.startSession({ message: "submit_review https://x.test/pr/5", principal: me });
    const second = (await untilEvent(runtime, stopped.sessionId, "action.approval_requested")) as AnyBdkEvent & { turnId: string };
    await runtime.stop(stopped.sessionId, me);
    await stopped.done;

    const denials = store.logs.list({ level: "warn" }).filter((line) => line.msg.startsWith("Approval of tool"));
    expect(denials.map((line) => [line.msg, line.data])).toEqual([
      [
        "Approval of tool submit_review denied by user:local: not on Fridays",
        { sessionId: denied.sessionId, turnId: first.turnId, toolCallId, tool: "submit_review" },
      ],
      [
        "Approval of tool submit_review denied by system: the turn was stopped",
        { sessionId: stopped.sessionId, turnId: second.turnId, toolCallId: (second.data as { toolCallId: string }).toolCallId, tool: "submit_review" },
      ],
    ]);
  });

  it("keeps a parked approval across a restart and continues the turn once approved", async () => {
    const root = tmp();
    const first = start(root, testAgent([approve]));
    const handle = await first.runtime.startSession({ message: "submit_review https://x.test/pr/3", principal: me });
    const parked = await untilEvent(first.runtime, handle.sessionId, "action.approval_requested");
    const { approvalId } = parked.data as { approvalId: string };
    first.store.close(); // the process dies: nothing more is written
    opened.splice(0);

    const second = start(root, testAgent([approve]));
    await second.runtime.recover();
    expect((await second.runtime.inbox.listApprovals(me)).map((row) => row.id)).toEqual([approvalId]);
    await second.runtime.inbox.resolveApproval(handle.sessionId, approvalId, { approved: true }, me);
    await second.runtime.idle(handle.sessionId);
    const events = await second.runtime.reader.events(handle.sessionId, me);
    expect(events.map((event) => event.index)).toEqual(events.map((_, i) => i));
    expect(events.find((event) => event.type === "action.result")?.data).toMatchObject({ isError: false });
    expect(events.at(-2)?.type).toBe("turn.completed");
    expect((events.at(-2)?.data as { result: string }).result).toContain("submitted");
  });
});
