import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_TOKEN_TYPE,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  METRIC_GEN_AI_CLIENT_OPERATION_DURATION,
  METRIC_GEN_AI_CLIENT_TOKEN_USAGE,
} from "@opentelemetry/semantic-conventions/incubating";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, KIT_DIR, readNdjson, startServer } from "./support/bdk-server.ts";
import { type OtlpReceiver, type SpanNode, shape, spanTrees, startOtlpReceiver } from "./support/otlp-receiver.ts";
import { runBdk, runProcess } from "./support/run-process.ts";

const FIXTURE = path.join(KIT_DIR, "test", "fixtures", "otel-bot");
/** The scripted model calls `task`; the helper subagent then calls `say_hi` for the name in quotes. */
const MESSAGE = 'task {"subagent":"helper","prompt":"say hi to \\"Ada\\""}';
const CONTENT_ATTRIBUTES = [ATTR_GEN_AI_INPUT_MESSAGES, ATTR_GEN_AI_OUTPUT_MESSAGES, ATTR_GEN_AI_TOOL_CALL_ARGUMENTS, ATTR_GEN_AI_TOOL_CALL_RESULT];
const SPAN_KIND = { internal: 1, client: 3 };

/** A turn's span tree, as the conventions lay it out: model calls and tool calls under the turn, the subagent under its task call. */
const TURN_TREE = {
  "invoke_agent otel-bot": [
    "chat scripted",
    { "execute_tool task": [{ "invoke_agent helper": ["chat scripted", "execute_tool say_hi", "chat scripted"] }] },
    "chat scripted",
  ],
};

const receivers: OtlpReceiver[] = [];
async function receiver(): Promise<OtlpReceiver> {
  const started = await startOtlpReceiver();
  receivers.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((started) => started.close()));
});

function stateRoot(): string {
  return mkdtempSync(path.join(tmpdir(), "bdk-otel-"));
}

function turnTree(collector: OtlpReceiver, sessionId: string): SpanNode | undefined {
  const spans = collector.spans().filter((span) => span.attributes[ATTR_GEN_AI_CONVERSATION_ID] === sessionId);
  return spanTrees(spans).find((root) => root.name === "invoke_agent otel-bot");
}

function descendants(node: SpanNode): SpanNode[] {
  return [node, ...node.children.flatMap(descendants)];
}

describe("OpenTelemetry export over OTLP/HTTP", () => {
  it("a served turn arrives as the GenAI span tree, without content, and its metrics on shutdown", async () => {
    const collector = await receiver();
    const server = await startServer({
      dir: FIXTURE,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_BSP_SCHEDULE_DELAY: "50",
      },
    });
    let sessionId: string;
    let toolCallId: string;
    try {
      const created = (await (
        await fetch(`${server.url}/v1/session`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ message: MESSAGE }),
        })
      ).json()) as { sessionId: string };
      sessionId = created.sessionId;
      const events = await readNdjson<{ type: string; data: { actions?: { toolCallId: string }[] } }>(
        await fetch(`${server.url}/v1/session/${sessionId}/stream`),
        (event) => event.type === "turn.completed",
      );
      toolCallId = events.find((event) => event.type === "actions.requested")!.data.actions![0].toolCallId;

      const root = await collector.waitFor(() => turnTree(collector, sessionId), "the turn's spans");
      expect(shape(root)).toEqual(TURN_TREE);

      const all = descendants(root);
      expect(new Set(all.map((span) => span.traceId)).size).toBe(1);
      expect(root.resource["service.name"]).toBe("otel-bot");
      expect(root.kind).toBe(SPAN_KIND.internal);
      expect(root.attributes).toMatchObject({
        [ATTR_GEN_AI_OPERATION_NAME]: "invoke_agent",
        [ATTR_GEN_AI_AGENT_NAME]: "otel-bot",
        [ATTR_GEN_AI_CONVERSATION_ID]: sessionId,
      });

      const [firstChat, task, lastChat] = root.children;
      expect(firstChat.kind).toBe(SPAN_KIND.client);
      expect(firstChat.attributes).toMatchObject({
        [ATTR_GEN_AI_OPERATION_NAME]: "chat",
        [ATTR_GEN_AI_PROVIDER_NAME]: "bdk",
        [ATTR_GEN_AI_REQUEST_MODEL]: "scripted",
        [ATTR_GEN_AI_RESPONSE_MODEL]: "scripted",
        [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: ["tool_call"],
      });
      expect(lastChat.attributes[ATTR_GEN_AI_RESPONSE_FINISH_REASONS]).toEqual(["stop"]);
      for (const chat of all.filter((span) => span.attributes[ATTR_GEN_AI_OPERATION_NAME] === "chat")) {
        expect(chat.attributes[ATTR_GEN_AI_USAGE_INPUT_TOKENS]).toBeGreaterThan(0);
        expect(chat.attributes[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]).toBeGreaterThan(0);
      }
      expect(task.attributes).toMatchObject({
        [ATTR_GEN_AI_OPERATION_NAME]: "execute_tool",
        [ATTR_GEN_AI_TOOL_NAME]: "task",
        [ATTR_GEN_AI_TOOL_CALL_ID]: toolCallId,
      });
      // The loop runs a step's tools after its model call, and the next step after the tools.
      expect(task.start >= firstChat.end).toBe(true);
      expect(lastChat.start >= task.end).toBe(true);
      const [helper] = task.children;
      expect(helper.attributes).toMatchObject({ [ATTR_GEN_AI_OPERATION_NAME]: "invoke_agent", [ATTR_GEN_AI_AGENT_NAME]: "helper" });
      expect(helper.children[1].attributes[ATTR_GEN_AI_TOOL_NAME]).toBe("say_hi");

      for (const span of all) for (const attribute of CONTENT_ATTRIBUTES) expect(span.attributes, `${span.name} ${attribute}`).not.toHaveProperty(attribute);
      const traceBodies = collector.exports.filter((entry) => entry.path === "/v1/traces").map((entry) => entry.body.toString("utf8"));
      expect(traceBodies.join("\n")).not.toContain("Ada");
    } finally {
      await server.stop();
    }

    // Metrics leave on shutdown (the export interval is a minute): built-in instruments and the hook's own.
    const metric = (name: string) => collector.metrics().find((candidate) => candidate.name === name);
    await collector.waitFor(() => metric("bdk.turns"), "the metrics");
    expect(metric("bdk.turns")!.points).toEqual([
      { attributes: { [ATTR_GEN_AI_AGENT_NAME]: "otel-bot", "bdk.turn.status": "completed" }, value: 1 },
    ]);
    expect(metric("bdk.turn.duration")!.points[0].count).toBe(1);
    expect(metric("bdk.turn.queue_wait")!.points[0].count).toBe(1);
    const tokenTypes = metric(METRIC_GEN_AI_CLIENT_TOKEN_USAGE)!.points.map((point) => point.attributes[ATTR_GEN_AI_TOKEN_TYPE]);
    expect(tokenTypes.sort()).toEqual(["input", "output"]);
    expect(metric(METRIC_GEN_AI_CLIENT_OPERATION_DURATION)!.points[0]).toMatchObject({
      attributes: { [ATTR_GEN_AI_OPERATION_NAME]: "chat", [ATTR_GEN_AI_REQUEST_MODEL]: "scripted" },
      count: 4,
    });
    const tools = metric("bdk.tool.duration")!.points.map((point) => point.attributes[ATTR_GEN_AI_TOOL_NAME]);
    expect(tools.sort()).toEqual(["say_hi", "task"]);
    expect(metric("fixture.turns")!.points).toEqual([{ attributes: { channel: "http" }, value: 1 }]);
    expect(metric("fixture.reply_chars")!.points[0]).toMatchObject({ count: 1 });
  });

  it("bdk run --otel --otel-content records prompts, replies, arguments and results, each cut to the limit", async () => {
    const collector = await receiver();
    const long = `${MESSAGE} ${"and a very long postscript ".repeat(20)}`;
    const run = await runBdk(
      ["run", "--dir", FIXTURE, "--state-root", stateRoot(), "--json", "--otel", collector.url, "--otel-content", "--message", long],
      { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", BDK_OTEL_CONTENT_LIMIT: "40" },
    );
    expect(run.code, run.stderr).toBe(0);
    const { sessionId } = JSON.parse(run.stdout) as { sessionId: string };

    // The run flushes on exit: everything is there already.
    const root = turnTree(collector, sessionId)!;
    expect(shape(root)).toEqual(TURN_TREE);
    const input = JSON.parse(String(root.attributes[ATTR_GEN_AI_INPUT_MESSAGES])) as { role: string; parts: { type: string; content: string }[] }[];
    expect(input).toEqual([{ role: "user", parts: [{ type: "text", content: `${long.slice(0, 40)}… [${long.length - 40} more characters]` }] }]);
    const output = JSON.parse(String(root.attributes[ATTR_GEN_AI_OUTPUT_MESSAGES])) as { role: string; finish_reason: string }[];
    expect(output).toMatchObject([{ role: "assistant", finish_reason: "stop" }]);

    const sayHi = descendants(root).find((span) => span.attributes[ATTR_GEN_AI_TOOL_NAME] === "say_hi")!;
    expect(sayHi.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]).toBe('{"name":"Ada"}');
    expect(sayHi.attributes[ATTR_GEN_AI_TOOL_CALL_RESULT]).toBe('{"greeting":"Hi, Ada!"}');
    const lastChat = root.children[2];
    const conversation = JSON.parse(String(lastChat.attributes[ATTR_GEN_AI_INPUT_MESSAGES])) as { role: string }[];
    expect(conversation.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
  });

  it("exports http/protobuf by default, and refuses an --otel value that is not an http(s) URL", async () => {
    const collector = await receiver();
    const run = await runBdk(["run", "--dir", FIXTURE, "--state-root", stateRoot(), "--otel", `${collector.url}/`, "--message", MESSAGE], {
      OTEL_EXPORTER_OTLP_PROTOCOL: undefined,
    });
    expect(run.code, run.stderr).toBe(0);
    const traces = collector.exports.filter((entry) => entry.path === "/v1/traces");
    expect(traces.map((entry) => entry.contentType)).toEqual(["application/x-protobuf"]);
    // Protobuf keeps strings as UTF-8 bytes: the span names are in the body.
    expect(traces[0].body.includes("invoke_agent otel-bot")).toBe(true);
    expect(traces[0].body.includes("execute_tool say_hi")).toBe(true);
    expect(collector.exports.some((entry) => entry.path === "/v1/metrics" && entry.contentType === "application/x-protobuf")).toBe(true);

    const refused = await runBdk(["run", "--dir", FIXTURE, "--otel", "localhost:4318", "--message", MESSAGE]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--otel expects the collector\'s OTLP/HTTP base URL (http://host:4318), got "localhost:4318"');
  });

  it("a collector that is down costs a warning, never the turn", async () => {
    const run = await runBdk(
      ["run", "--dir", FIXTURE, "--state-root", stateRoot(), "--otel", `http://127.0.0.1:${await freePort()}`, "--log-format", "text", "--text", "--message", "hello"],
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("I am otel-bot");
    expect(run.stderr).toMatch(/\[warn\] Telemetry: the last export failed: connect ECONNREFUSED|\[warn\] OpenTelemetry: .*ECONNREFUSED/);
  });

  it("loads no OpenTelemetry module when no endpoint is configured", async () => {
    const script = `
      import { createRequire } from "node:module";
      import { mkdtempSync } from "node:fs";
      import { tmpdir } from "node:os";
      import path from "node:path";
      const { openAgent } = await import(${JSON.stringify(path.join(KIT_DIR, "server", "host", "open-agent.ts"))});
      const env = { BDK_MODEL: "scripted", ...(process.argv[1] ? { OTEL_EXPORTER_OTLP_ENDPOINT: process.argv[1] } : {}) };
      const opened = await openAgent(${JSON.stringify(FIXTURE)}, { env, stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-otel-")) });
      await (await opened.runtime.startSession({ message: "hello", principal: { type: "user", id: "local" } })).done;
      await opened.close();
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes("@opentelemetry"));
      process.stdout.write(String(loaded.length));
    `;
    const loadedWith = async (endpoint: string) => {
      const result = await runProcess(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, endpoint], {
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: undefined },
      });
      expect(result.code, result.stderr).toBe(0);
      return Number(result.stdout);
    };
    const collector = await receiver();
    expect(await loadedWith("")).toBe(0);
    // The same check sees the SDK once an endpoint is set: it is not vacuous.
    expect(await loadedWith(collector.url)).toBeGreaterThan(0);
  });
});

