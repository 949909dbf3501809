import { AsyncLocalStorage } from "node:async_hooks";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { recordingModel, userTexts } from "../../test/support/recording-model.ts";
import { afterEach, expect, it } from "vitest";
import { startTestRuntime, type TestRuntime } from "../../test/support/runtime.ts";
import { testAgent } from "../../test/support/tools.ts";

const me = { type: "user" as const, id: "local" };
const opened: TestRuntime[] = [];
afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.close();
});


it("forgets idle sessions past the cache and rebuilds their history from events", async () => {
  const prompts: LanguageModelV3Prompt[] = [];
  const test = startTestRuntime({
    stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-live-")),
    agent: testAgent([]),
    models: [{ id: "scripted", model: recordingModel(prompts) }],
    idleSessionsCached: 2,
  });
  opened.push(test);
  const first = await test.runtime.startSession({ message: "first question", principal: me });
  await first.done;
  // Three more sessions push the first one out of the cache of two.
  for (const message of ["b", "c", "d"]) await (await test.runtime.startSession({ message, principal: me })).done;
  prompts.length = 0;
  await (await test.runtime.followUp(first.sessionId, { message: "second question", principal: me })).done;
  expect(userTexts(prompts[0])).toEqual(["first question", "second question"]);
});

it("does not keep the async context of the request that queued a turn", async () => {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const test = startTestRuntime({ stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-live-")), agent: testAgent([]) });
  opened.push(test);
  const request = new AsyncLocalStorage<{ body: Uint8Array }>();
  let context: WeakRef<object> | undefined;
  const sessionId = await request.run({ body: new Uint8Array(1024) }, async () => {
    context = new WeakRef(request.getStore()!);
    const handle = await test.runtime.startSession({ message: "hello", principal: me });
    await handle.done;
    return handle.sessionId;
  });
  await test.runtime.idle(sessionId);
  for (let i = 0; i < 3 && context!.deref(); i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  expect(context!.deref()).toBeUndefined();
});
