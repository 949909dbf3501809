import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { startTestRuntime } from "../../test/support/runtime.ts";
import { testAgent, zodTool } from "../../test/support/tools.ts";
import { defineArtifacts } from "../authoring/artifacts.ts";
import { defineHook } from "../authoring/hooks.ts";
import { defineResult } from "../authoring/result.ts";
import type { ResolvedAgent } from "../load/types.ts";
import type { AnyBdkEvent } from "../protocol/events.ts";
import type { Store } from "../store/index.ts";
import { SessionRuntime } from "./session-runtime.ts";

const me = { type: "user" as const, id: "local" };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function start(agent: ResolvedAgent): { runtime: SessionRuntime; store: Store } {
  const started = startTestRuntime({ stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-features-")), agent });
  cleanups.push(started.close);
  return started;
}

async function turn(runtime: SessionRuntime, message: string) {
  const handle = await runtime.startSession({ message, principal: me });
  const end = await handle.done;
  return { end, events: await runtime.reader.events(handle.sessionId, me), sessionId: handle.sessionId };
}

const find = (events: AnyBdkEvent[], type: string) => events.filter((event) => event.type === type);

describe("subagents", () => {
  it("delegates through task with subagent.called and subagent.completed", async () => {
    const agent = testAgent([], {
      subagents: [
        { id: "researcher", description: "Looks things up", instructions: "You research.", config: {}, file: "x" },
      ],
    });
    const { runtime } = start(agent);
    const { events, sessionId } = await turn(runtime, 'task {"subagent": "researcher", "prompt": "find the answer"}');
    expect(find(events, "subagent.called")[0]?.data).toMatchObject({ subagent: "researcher", prompt: "find the answer" });
    const completed = find(events, "subagent.completed")[0]?.data as { isError: boolean; result: string };
    expect(completed.isError).toBe(false);
    expect(completed.result).toContain("researcher");

    // The subagent's own steps are stored under the parent's task call, with its own instructions and prompt.
    const called = find(events, "subagent.called")[0] as AnyBdkEvent & { data: { toolCallId: string } };
    const trace = await runtime.reader.turnTrace(sessionId, called.turnId!, me);
    const child = trace.modelCalls.filter((call) => call.scope === called.data.toolCallId);
    expect(child.length).toBeGreaterThanOrEqual(1);
    expect(child[0].request.system).toBe("You research.");
    expect(child[0].request.messages[0]).toEqual({ role: "user", content: "find the answer" });
    expect(child[0].request.tools.map((tool) => tool.name)).not.toContain("task");
    expect(trace.modelCalls.filter((call) => call.scope === "").map((call) => call.step)).toEqual([0, 1]);
  });

  it("marks a failed delegation as an error", async () => {
    const { runtime } = start(
      testAgent([], { subagents: [{ id: "a", description: "d", instructions: "i", config: {}, file: "x" }] }),
    );
    const { events } = await turn(runtime, 'task {"subagent": "missing", "prompt": "x"}');
    expect(find(events, "action.result")[0]?.data).toMatchObject({ isError: true });
  });
});

describe("hooks", () => {
  it("observe frozen events, and a throwing hook does not affect the turn", async () => {
    const seen: string[] = [];
    let mutation = "not tried";
    const hooks = new Map([
      [
        "audit/all",
        defineHook({
          events: {
            "*"(event) {
              seen.push(event.type);
              try {
                (event as { type: string }).type = "changed";
                mutation = "allowed";
              } catch {
                mutation = "refused";
              }
            },
          },
        }),
      ],
      [
        "broken",
        defineHook({
          events: {
            "turn.completed"() {
              throw new Error("hook bug");
            },
          },
        }),
      ],
    ]);
    const { runtime, store } = start(testAgent([], { hooks }));
    const { end, events } = await turn(runtime, "hello");
    expect(end.status).toBe("completed");
    expect(seen).toEqual(events.map((event) => event.type));
    expect(mutation).toBe("refused");
    expect(store.logs.list({ level: "warn" }).some((row) => row.msg.includes("hook bug"))).toBe(true);
  });
});

describe("artifacts", () => {
  it("tags through tag_artifact with artifact.tagged, validates kinds and evicts past max", async () => {
    const artifacts = defineArtifacts({
      kinds: { note: { description: "A note", schema: z.object({ score: z.number() }) } },
      agentTool: true,
      max: 2,
    });
    const { runtime, store } = start(testAgent([], { artifacts }));
    for (const key of ["a", "b", "c"]) {
      const { events } = await turn(
        runtime,
        `tag_artifact {"kind": "note", "key": "${key}", "title": "Note ${key}", "data": {"score": 1}}`,
      );
      expect(find(events, "artifact.tagged")[0]?.data).toMatchObject({ kind: "note", key, title: `Note ${key}` });
    }
    expect(store.artifacts.list().map((row) => row.key).sort()).toEqual(["b", "c"]);
    const { events } = await turn(runtime, 'tag_artifact {"kind": "secret", "key": "x", "title": "t"}');
    expect(String((find(events, "action.result")[0]?.data as { output: unknown }).output)).toContain(
      'Unknown artifact kind "secret"',
    );
  });
});

describe("result.ts", () => {
  it("asks for a revision on ctx.reject and accepts the next answer", async () => {
    let calls = 0;
    const result = defineResult({
      commit(_text, ctx) {
        if (calls++ === 0) ctx.reject("mention the verdict");
      },
    });
    const { runtime } = start(testAgent([], { result }));
    const { end, events } = await turn(runtime, "hello");
    expect(end.status).toBe("completed");
    expect(calls).toBe(2);
    expect(find(events, "message.completed")).toHaveLength(2);
  });

  it("fails the turn when revisions keep being rejected, or when commit throws", async () => {
    const rejecting = start(testAgent([], { result: defineResult({ commit: (_t, ctx) => ctx.reject("never good") }) }));
    const rejected = await turn(rejecting.runtime, "hello");
    expect(rejected.end).toMatchObject({ status: "failed", code: "result_rejected" });

    const throwing = start(
      testAgent([], {
        result: defineResult({
          commit() {
            throw new Error("could not post the review");
          },
        }),
      }),
    );
    const thrown = await turn(throwing.runtime, "hello");
    expect(thrown.end).toMatchObject({ status: "failed", message: "could not post the review" });
    expect(find(thrown.events, "turn.failed")).toHaveLength(1);
  });
});

describe("dry runs", () => {
  it("returns dryRunResult for write tools in dry-run sessions", async () => {
    const write = zodTool("submit_it", z.object({}), () => ({ real: true }), {
      effect: () => "write",
      effectLabel: "write",
      dryRunResult: () => ({ dryRun: true, wouldSubmit: true }),
    });
    const { runtime } = start(testAgent([write]));
    const handle = await runtime.startSession({ message: "submit_it now", principal: me, dryRun: true, purpose: "eval" });
    await handle.done;
    const result = (await runtime.reader.events(handle.sessionId, me)).find((event) => event.type === "action.result");
    expect(result?.data).toMatchObject({ output: { dryRun: true, wouldSubmit: true } });
  });
});
