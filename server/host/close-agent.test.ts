/**
 * Closing an opened agent at shutdown when the database has gone: handing
 * on the automation's leases, or any other step, fails, and the turns and
 * the store are closed all the same (a server that stops must not leave its
 * turns running or its store open because the first step threw).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { removeTempProjects, tempProject } from "../load/testing/temp-project.ts";
import { type OpenedAgent, openAgent } from "./open-agent.ts";

afterAll(() => removeTempProjects());

async function opened(): Promise<OpenedAgent> {
  const project = tempProject({
    "package.json": '{ "name": "ops", "type": "module" }',
    "bot/instructions.md": "You watch CI.",
    "bot/schedules/nightly.md": '---\ncron: "0 3 * * *"\n---\nCheck the nightly build.\n',
  });
  const stateRoot = mkdtempSync(path.join(tmpdir(), "bdk-close-"));
  const agent = await openAgent(project, { stateRoot, env: { BDK_MODEL: "scripted" } });
  await agent.automation.start({ schedules: true, timers: true });
  return agent;
}

/** Records, in order, which of the runtime and the store have closed. */
function recordClosing(agent: OpenedAgent): string[] {
  const closed: string[] = [];
  const { runtime, store } = agent;
  const closeRuntime = runtime.close.bind(runtime);
  runtime.close = async () => {
    await closeRuntime();
    closed.push("runtime");
  };
  const closeStore = store.close;
  store.close = async () => {
    await closeStore();
    closed.push("store");
  };
  return closed;
}

it("closes the runtime and the store when handing on the schedules and reminders leases fails", async () => {
  const agent = await opened();
  const closed = recordClosing(agent);
  agent.store.leases.release = async () => {
    throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
  };
  await agent.close();
  expect(closed).toEqual(["runtime", "store"]);
});

it("runs every later step when one fails, then throws the first failure", async () => {
  const agent = await opened();
  const closed = recordClosing(agent);
  const closeAutomation = agent.automation.close.bind(agent.automation);
  agent.automation.close = async () => {
    await closeAutomation();
    throw new Error("channels did not close");
  };
  await expect(agent.close()).rejects.toThrow("channels did not close");
  expect(closed).toEqual(["runtime", "store"]);
});
