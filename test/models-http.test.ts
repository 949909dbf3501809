import { stepCountIs, streamText, tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { isModelUnavailableError, resolveModel, resolveModelChain, type ResolvedModel } from "../server/models/index.ts";
import { BdkError } from "../server/protocol/errors.ts";
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from "./support/openai-compatible-server.ts";

const servers: OpenAICompatibleServer[] = [];
async function server(...responses: Parameters<OpenAICompatibleServer["enqueue"]>) {
  const started = await startOpenAICompatibleServer(responses);
  servers.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((started) => started.close()));
});

const lookups: string[] = [];
const lookupOrder = tool({
  description: "Look up an order by id",
  inputSchema: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => {
    lookups.push(orderId);
    return { orderId, status: "shipped" };
  },
});

async function runWith(resolved: ResolvedModel, prompt: string) {
  const result = streamText({
    model: resolved.model,
    providerOptions: resolved.providerOptions,
    tools: { lookup_order: lookupOrder },
    stopWhen: stepCountIs(5),
    maxRetries: 0,
    // Errors surface as `error` parts below; the default handler would only log them.
    onError: () => {},
    prompt,
  });
  const parts: string[] = [];
  const deltas: string[] = [];
  for await (const part of result.fullStream) {
    parts.push(part.type);
    if (part.type === "text-delta") deltas.push(part.text);
    if (part.type === "error") throw part.error;
  }
  return { parts, deltas, text: await result.text, usage: await result.totalUsage };
}

describe("models over real HTTP", () => {
  it("compat/<id>: streams a tool call over SSE, sends the result back, then streams text", async () => {
    lookups.length = 0;
    const api = await server(
      { toolCall: { name: "lookup_order", arguments: { orderId: "A-17" }, id: "call_1" } },
      { text: "Order A-17 has shipped." },
    );
    const resolved = resolveModel("compat/test-model", {
      env: { BDK_OPENAI_BASE_URL: api.baseURL, BDK_OPENAI_API_KEY: "local-key" },
      agentName: "shop",
    });
    expect(resolved).toMatchObject({ id: "compat/test-model", provider: "compat" });

    const run = await runWith(resolved, "Where is order A-17?");
    expect(lookups).toEqual(["A-17"]);
    expect(run.parts.filter((type) => type === "tool-input-delta").length).toBeGreaterThan(1);
    expect(run.text).toBe("Order A-17 has shipped.");
    expect(run.deltas.length).toBeGreaterThan(1);
    expect(run.usage.inputTokens).toBeGreaterThan(0);
    expect(run.usage.outputTokens).toBeGreaterThan(0);

    expect(api.requests).toHaveLength(2);
    const [first, second] = api.requests;
    expect(first.headers.authorization).toBe("Bearer local-key");
    expect(first.body).toMatchObject({ model: "test-model", stream: true, stream_options: { include_usage: true } });
    expect(first.body.tools.map((entry: { function: { name: string } }) => entry.function.name)).toEqual(["lookup_order"]);
    expect(first.body.messages).toEqual([{ role: "user", content: "Where is order A-17?" }]);
    expect(second.body.messages.at(-1)).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: JSON.stringify({ orderId: "A-17", status: "shipped" }),
    });
  });

  it("compat params: effort becomes reasoning_effort, unknown params reach the request body", async () => {
    const api = await server({ text: "ok" });
    const resolved = resolveModel(
      { id: "compat/test-model", params: [{ id: "effort", value: "low" }, { id: "num_ctx", value: "8192" }] },
      { env: { BDK_OPENAI_BASE_URL: api.baseURL }, agentName: "shop" },
    );
    await runWith(resolved, "hi");
    expect(api.requests[0].body).toMatchObject({ reasoning_effort: "low", num_ctx: 8192 });
  });

  it("grok-*: the xAI provider works against XAI_BASE_URL with the default params", async () => {
    lookups.length = 0;
    const api = await server(
      { toolCall: { name: "lookup_order", arguments: { orderId: "B-2" }, id: "call_x" }, inOneChunk: true },
      { text: "B-2 shipped." },
    );
    const resolved = resolveModel(undefined, { env: { XAI_API_KEY: "xai-test", XAI_BASE_URL: api.baseURL }, agentName: "shop" });
    expect(resolved).toMatchObject({
      id: "grok-4.5",
      provider: "xai",
      params: [
        { id: "effort", value: "high" },
        { id: "fast", value: "true" },
      ],
    });
    const run = await runWith(resolved, "Where is B-2?");
    expect(lookups).toEqual(["B-2"]);
    expect(run.text).toBe("B-2 shipped.");
    expect(run.usage.totalTokens).toBeGreaterThan(0);
    expect(api.requests[0].headers.authorization).toBe("Bearer xai-test");
    expect(api.requests[0].body).toMatchObject({ model: "grok-4.5", reasoning_effort: "high", service_tier: "priority" });
  });

  it("a missing key is model_unavailable naming XAI_API_KEY; dev falls back to scripted", () => {
    let thrown: unknown;
    try {
      resolveModel("grok-4.5", { env: {}, agentName: "shop" });
    } catch (error) {
      thrown = error;
    }
    expect(BdkError.isInstance(thrown)).toBe(true);
    expect((thrown as BdkError).code).toBe("model_unavailable");
    expect((thrown as BdkError).message).toBe(
      "Model grok-4.5 needs XAI_API_KEY: set it in the environment, or set BDK_MODEL=scripted to use the offline scripted model.",
    );
    expect(isModelUnavailableError(thrown)).toBe(true);

    const dev = resolveModel(undefined, { env: {}, agentName: "shop", dev: true });
    expect(dev).toMatchObject({ id: "scripted", provider: "scripted", fellBackToScripted: true, requestedId: "grok-4.5" });
    expect(dev.fallbackReason).toContain("XAI_API_KEY");
    expect(dev.model.modelId).toBe("scripted");
  });

  it("names the variable for each provider and the accepted forms for unknown ids", () => {
    const messageFor = (id: string) => {
      try {
        resolveModel(id, { env: {}, agentName: "shop" });
      } catch (error) {
        return (error as BdkError).message;
      }
      return "resolved";
    };
    expect(messageFor("openai/gpt-5")).toContain("needs OPENAI_API_KEY");
    expect(messageFor("anthropic/claude-sonnet-4-5")).toContain("needs ANTHROPIC_API_KEY");
    expect(messageFor("compat/llama3")).toContain("needs BDK_OPENAI_BASE_URL");
    expect(messageFor("gpt-5")).toBe(
      'Unknown model "gpt-5". Use grok-<version>, openai/<id>, anthropic/<id>, compat/<id> or scripted.',
    );
    expect(messageFor("scripted")).toBe("resolved");
  });

  it("maps effort and fast per provider", () => {
    const env = { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" };
    const params = [
      { id: "effort", value: "medium" },
      { id: "fast", value: "true" },
      { id: "textVerbosity", value: "low" },
    ];
    expect(resolveModel({ id: "openai/gpt-5", params }, { env, agentName: "a" }).providerOptions).toEqual({
      openai: { reasoningEffort: "medium", serviceTier: "priority", textVerbosity: "low" },
    });
    expect(resolveModel({ id: "anthropic/claude-opus-4-6", params: params.slice(0, 2) }, { env, agentName: "a" }).providerOptions).toEqual({
      anthropic: { effort: "medium", speed: "fast" },
    });
    expect(resolveModel({ id: "openai/gpt-5", params: [{ id: "fast", value: "false" }] }, { env, agentName: "a" }).providerOptions).toEqual({});
  });

  it("--model beats BDK_MODEL, which beats the agent's setting", () => {
    const env = { BDK_MODEL: "scripted", OPENAI_API_KEY: "k" };
    expect(resolveModel("grok-4.5", { env, agentName: "a" }).id).toBe("scripted");
    expect(resolveModel("grok-4.5", { env, agentName: "a", override: "openai/gpt-5" }).id).toBe("openai/gpt-5");
    const chain = resolveModelChain("grok-4.5", ["openai/gpt-5"], { env, agentName: "a" });
    expect(chain.map((candidate) => candidate.id)).toEqual(["scripted"]);
  });

  it("fallbacks: a 503 from the first candidate moves the turn to the next one", async () => {
    const failing = await server({ status: 503, error: "overloaded" });
    const healthy = await server({ text: "Answered by the fallback." });
    const chain = resolveModelChain("grok-4.5", ["openai/gpt-5", "compat/test-model"], {
      env: { XAI_API_KEY: "k", XAI_BASE_URL: failing.baseURL, BDK_OPENAI_BASE_URL: healthy.baseURL },
      agentName: "shop",
    });
    // openai/gpt-5 has no key: left out of the chain.
    expect(chain.map((candidate) => candidate.id)).toEqual(["grok-4.5", "compat/test-model"]);

    const outcomes: string[] = [];
    let answer: string | undefined;
    for (const candidate of chain) {
      try {
        answer = (await runWith(candidate, "hello")).text;
        outcomes.push(`${candidate.id}: ok`);
        break;
      } catch (error) {
        expect(isModelUnavailableError(error)).toBe(true);
        outcomes.push(`${candidate.id}: unavailable`);
      }
    }
    expect(outcomes).toEqual(["grok-4.5: unavailable", "compat/test-model: ok"]);
    expect(answer).toBe("Answered by the fallback.");
    expect(failing.requests).toHaveLength(1);
  });

  it("classifies refused connections and auth failures as unavailable, bad requests as not", async () => {
    const closed = await server();
    const url = closed.baseURL;
    await closed.close();
    servers.length = 0;
    const unreachable = resolveModel("compat/test-model", { env: { BDK_OPENAI_BASE_URL: url }, agentName: "a" });
    await expect(runWith(unreachable, "hi")).rejects.toSatisfy(isModelUnavailableError);

    const api = await server({ status: 401 }, { status: 400 });
    const resolved = resolveModel("compat/test-model", { env: { BDK_OPENAI_BASE_URL: api.baseURL }, agentName: "a" });
    await expect(runWith(resolved, "hi")).rejects.toSatisfy(isModelUnavailableError);
    await expect(runWith(resolved, "hi")).rejects.toSatisfy((error: unknown) => !isModelUnavailableError(error));
  });

  it("without any credential the chain throws in serve and falls back to scripted in dev", () => {
    expect(() => resolveModelChain(undefined, ["openai/gpt-5"], { env: {}, agentName: "a" })).toThrow(/needs XAI_API_KEY/);
    const dev = resolveModelChain(undefined, ["openai/gpt-5"], { env: { BDK_SCRIPTED_DELAY_MS: "250" }, agentName: "a", dev: true });
    expect(dev.map((candidate) => [candidate.id, candidate.fellBackToScripted])).toEqual([["scripted", true]]);
  });
});
