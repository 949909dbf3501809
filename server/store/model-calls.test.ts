import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_STORED_STRING, type ModelStepRecord } from "../protocol/model-calls.ts";
import { alice, tempRoots } from "./testing/temp-root.ts";

const roots = tempRoots();
afterEach(() => roots.cleanup());

const tools = [{ name: "fetch_pr", description: "Fetch a PR.", inputSchema: { type: "object" } }];
const usage = { inputTokens: 10, outputTokens: 2, cachedInputTokens: 0 };

function step(step: number, messages: unknown[], system = "You review PRs."): ModelStepRecord {
  return {
    step,
    startedAt: `2025-01-01T00:00:0${step}.000Z`,
    durationMs: 12.5,
    request: { system, messages, tools, params: { model: "scripted", provider: "bdk", modelId: "scripted" } },
    response: { text: `answer ${step}`, reasoning: "", toolCalls: [], finishReason: "stop", usage },
  };
}

describe("store.modelCalls", () => {
  it("gives back each step's whole request while storing only what changed since the previous step", () => {
    const root = roots.root();
    const store = roots.open(root);
    const sessionId = store.sessions.create({ mode: "chat", channel: "http", principal: alice }).id;
    const first = { role: "user", content: "hi" };
    const reply = { role: "assistant", content: [{ type: "text", text: "hello" }] };
    const second = { role: "user", content: "again" };
    expect(store.modelCalls.append(sessionId, "turn_1", "", step(0, [first]))).toBe(true);
    expect(store.modelCalls.append(sessionId, "turn_2", "", step(0, [first, reply, second]))).toBe(true);
    // A subagent's chain of its own, under the parent's task call.
    store.modelCalls.append(sessionId, "turn_2", "call_task", step(0, [{ role: "user", content: "sub" }], "You are a helper."));
    expect(store.modelCalls.append(sessionId, "turn_2", "", step(0, [first]))).toBe(false);

    const rows = store.modelCalls.ofTurns(sessionId, ["turn_2"]);
    expect(rows.map((row) => [row.scope, row.step])).toEqual([["", 0], ["call_task", 0]]);
    expect(rows[0].request).toEqual({ system: "You review PRs.", messages: [first, reply, second], tools, params: expect.objectContaining({ model: "scripted" }) });
    expect(rows[0].response.text).toBe("answer 0");
    expect(rows[1].request.system).toBe("You are a helper.");

    const raw = new Database(path.join(root, "bdk.sqlite"), { readonly: true });
    const stored = raw.prepare("SELECT system, tools, request FROM model_calls WHERE scope = '' ORDER BY rowid").all() as Array<Record<string, string | null>>;
    raw.close();
    expect(stored[1].system).toBeNull();
    expect(stored[1].tools).toBeNull();
    expect(JSON.parse(stored[1].request!)).toMatchObject({ base: 1, messages: [reply, second] });

    // After a restart: the same content, and the next row is stored whole (the writer no longer knows the previous one).
    store.close();
    const reopened = roots.open(root);
    expect(reopened.modelCalls.ofTurns(sessionId, ["turn_2"])).toEqual(rows);
    reopened.modelCalls.append(sessionId, "turn_3", "", step(0, [first, reply, second, reply]));
    expect(reopened.modelCalls.ofTurns(sessionId, ["turn_3"])[0].request.messages).toEqual([first, reply, second, reply]);
    expect(reopened.modelCalls.ofTurns(sessionId, ["turn_missing"])).toEqual([]);
    // Several turns in one read: each turn's steps as a read of that turn alone gives them, in the order they ran.
    const one = (turnId: string) => reopened.modelCalls.ofTurns(sessionId, [turnId]);
    expect(reopened.modelCalls.ofTurns(sessionId, ["turn_3", "turn_1", "turn_2"])).toEqual([...one("turn_1"), ...one("turn_2"), ...one("turn_3")]);
  });

  it("cuts long strings with a marker naming their length and names binary parts", () => {
    const store = roots.open(roots.root());
    const sessionId = store.sessions.create({ mode: "chat", channel: "http", principal: alice }).id;
    const huge = "x".repeat(MAX_STORED_STRING + 10);
    store.modelCalls.append(sessionId, "turn_1", "", step(0, [{ role: "user", content: [{ type: "file", data: new Uint8Array(3) }, { type: "image", image: Buffer.from("png!") }, { type: "text", text: huge }] }]));
    const [row] = store.modelCalls.ofTurns(sessionId, ["turn_1"]);
    expect(row.request.messages[0]).toEqual({
      role: "user",
      content: [
        { type: "file", data: "[binary: 3 bytes]" },
        { type: "image", image: "[binary: 4 bytes]" },
        { type: "text", text: `${"x".repeat(MAX_STORED_STRING)}… [truncated: ${MAX_STORED_STRING + 10} characters in all]` },
      ],
    });
  });

  it("stores the next step whole when the previous one was rolled back with its transaction", () => {
    const store = roots.open(roots.root());
    const sessionId = store.sessions.create({ mode: "chat", channel: "http", principal: alice }).id;
    const first = { role: "user", content: "hi" };
    const reply = { role: "assistant", content: "hello" };
    expect(() =>
      store.transaction(() => {
        store.modelCalls.append(sessionId, "turn_1", "", step(0, [first]));
        throw new Error("the step's events could not be stored");
      }),
    ).toThrow("could not be stored");
    store.modelCalls.append(sessionId, "turn_1", "", step(1, [first, reply]));
    expect(store.modelCalls.ofTurns(sessionId, ["turn_1"])).toMatchObject([{ step: 1, request: { system: "You review PRs.", messages: [first, reply], tools } }]);
  });
});
