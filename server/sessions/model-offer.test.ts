/**
 * The model offer against what the model is actually given: kitchen-sink
 * (bot tools, built-ins, reminders, artifacts, a subagent, an extension, an
 * MCP connection, skills and memory) on the recording scripted model, with
 * its real MCP server child.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { afterAll, beforeAll, expect, it } from "vitest";
import { recordingModel } from "../../test/support/recording-model.ts";
import { startTestRuntime, type TestRuntime } from "../../test/support/runtime.ts";
import { createLogger } from "../host/logger.ts";
import { loadAgent } from "../load/load-agent.ts";
import { KIT_ROOT } from "../load/testing/temp-project.ts";
import { McpConnections } from "../mcp/connections.ts";
import { systemPromptText } from "../harness/system-prompt.ts";
import { type AgentRequest, sessionRoutes } from "../http/agent-routes.ts";
import type { OpenedAgent } from "../host/open-agent.ts";
import { BdkError } from "../protocol/errors.ts";
import { NEW_SESSION_WORKSPACE, offerJson } from "./model-offer.ts";

const customer = { type: "user" as const, id: "customer-1" };
const prompts: LanguageModelV3Prompt[] = [];
const calls: LanguageModelV3CallOptions[] = [];
let stateRoot: string;
let test: TestRuntime;
let mcp: McpConnections;

beforeAll(async () => {
  const loaded = await loadAgent(path.join(KIT_ROOT, "bot-examples/kitchen-sink"));
  const agent = loaded.agent!;
  stateRoot = mkdtempSync(path.join(tmpdir(), "bdk-offer-"));
  mcp = new McpConnections({ agent: () => agent, env: process.env, logger: createLogger(undefined) });
  test = startTestRuntime({ stateRoot, agent, models: [{ id: "scripted", model: recordingModel(prompts, calls) }], mcp });
}, 60_000);

afterAll(async () => {
  await test?.close();
  await mcp?.close();
  rmSync(stateRoot, { recursive: true, force: true });
});

const systemOf = (prompt: LanguageModelV3Prompt) =>
  prompt
    .filter((message) => message.role === "system")
    .map((message) => message.content)
    .join("\n");

const offeredNames = (call: LanguageModelV3CallOptions) => (call.tools ?? []).map((tool) => tool.name);

it("lists every tool the model receives, in its order, each with its source", async () => {
  const offer = await test.runtime.tools.modelOffer(customer);
  const first = await test.runtime.startSession({ message: "hello", principal: customer });
  await first.done;

  const given = calls.at(-1)!;
  expect(offer.tools.map((tool) => tool.name)).toEqual(offeredNames(given));
  expect(offer.tools.length).toBeGreaterThan(10);
  const json = offerJson(offer);
  const sources = new Map(json.tools.map((tool) => [tool.name, tool.source]));
  expect(sources.get("lookup_order")).toBe("bot");
  expect(sources.get("read")).toBe("built-in");
  expect(sources.get("reminders_create")).toBe("reminders");
  expect(sources.get("tag_artifact")).toBe("artifacts");
  expect(sources.get("task")).toBe("subagents");
  expect([...sources.values()]).toContain("extension");
  const warehouse = json.tools.filter((tool) => tool.source === "mcp");
  expect(warehouse.length).toBeGreaterThan(0);
  expect(warehouse.every((tool) => tool.connection === "warehouse" && tool.name.startsWith("warehouse__"))).toBe(true);
  // What each tool says to the model is what the tab shows.
  for (const tool of given.tools ?? []) {
    if (tool.type === "function") expect(json.tools.find((offered) => offered.name === tool.name)?.description).toBe(tool.description);
  }
});

it("composes the system prompt the session's next turn receives, with skills and recalled memory marked", async () => {
  const second = await test.runtime.startSession({ message: "where is my order?", principal: customer });
  await second.done;
  await test.runtime.idle(second.sessionId);

  const offer = await test.runtime.tools.modelOffer(customer, second.sessionId);
  expect(offer.systemPrompt.map((section) => section.source)).toEqual(["instructions", "skills", "workspace", "memory"]);
  // The first session's exchange is recalled; the session's own is in its history instead.
  expect(offer.systemPrompt.find((section) => section.source === "memory")?.text).toContain("Asked: hello");

  await (await test.runtime.followUp(second.sessionId, { message: "thanks", principal: customer })).done;
  expect(systemOf(prompts.at(-1)!)).toBe(systemPromptText(offer.systemPrompt));
  expect(offer.botVersion).toBe(test.runtime.agent.version);
});

it("shows a new session's workspace as not yet made, and a fork's instructions in place of the composed prompt", async () => {
  const fresh = await test.runtime.tools.modelOffer(customer);
  expect(fresh.systemPrompt.find((section) => section.source === "workspace")?.text).toContain(NEW_SESSION_WORKSPACE);

  const source = await test.runtime.startSession({ message: "hi", principal: customer });
  await source.done;
  const fork = await test.runtime.fork(source.sessionId, {
    principal: customer,
    owner: customer,
    at: { beforeIndex: 1 },
    overrides: { instructions: "Answer in haiku.", toolResults: { lookup_order: { output: { status: "shipped" } } } },
  });
  await fork.done;
  const offer = offerJson(await test.runtime.tools.modelOffer(customer, fork.sessionId));
  expect(offer.systemPrompt).toEqual([{ source: "fork", text: "Answer in haiku." }]);
  expect(offer.tools.find((tool) => tool.name === "lookup_order")).toMatchObject({ source: "bot", stubbed: true });
  expect(systemOf(prompts.at(-1)!)).toBe("Answer in haiku.");
});

it("answers GET /v1/agent/offer for the caller's session, and refuses another principal's", async () => {
  const session = await test.runtime.startSession({ message: "hi", principal: customer });
  await session.done;
  const ask = (principal: typeof customer, sessionId: string) =>
    sessionRoutes.agentOffer({
      request: new Request(`http://127.0.0.1/v1/agent/offer?sessionId=${sessionId}`),
      params: {},
      opened: { runtime: test.runtime } as OpenedAgent,
      principal,
      seesAll: false,
      basePath: "",
    } satisfies AgentRequest);
  const body = (await (await ask(customer, session.sessionId)).json()) as ReturnType<typeof offerJson> & { ok: boolean };
  expect(body.ok).toBe(true);
  expect(body.botVersion).toBe(test.runtime.agent.version);
  expect(body.tools.map((tool) => tool.name)).toEqual(offeredNames(calls.at(-1)!));
  const refused = await ask({ type: "user", id: "someone-else" }, session.sessionId).catch((error: unknown) => error);
  expect(BdkError.isInstance(refused) && refused.code).toBe("forbidden");
});
