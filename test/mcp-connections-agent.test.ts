/**
 * An agent project with MCP connections (test/fixtures/mcp-agent), opened as
 * `bdk serve` opens it, on the scripted model: real stdio children, real turns.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenedAgent, openAgent } from "../server/host/open-agent.ts";
import { type AgentRequest, sessionRoutes } from "../server/http/agent-routes.ts";
import type { AnyBdkEvent, Principal } from "../server/protocol/events.ts";
import { KIT_ROOT } from "../server/load/testing/temp-project.ts";
import { processAlive } from "./support/mcp-servers.ts";

const PROJECT = path.join(KIT_ROOT, "test/fixtures/mcp-agent");
const principal: Principal = { type: "user", id: "tester" };
let stateRoot: string;
let opened: OpenedAgent;

beforeAll(async () => {
  stateRoot = mkdtempSync(path.join(os.tmpdir(), "bdk-mcp-agent-"));
  opened = await openAgent(PROJECT, { stateRoot, env: { ...process.env, GREETING: "hello from env" } });
});

afterAll(async () => {
  await opened?.close();
  rmSync(stateRoot, { recursive: true, force: true });
});

/** Runs one chat turn and returns its events. */
async function turn(message: string): Promise<AnyBdkEvent[]> {
  const handle = await opened.runtime.startSession({ message, principal });
  await handle.done;
  await opened.runtime.idle(handle.sessionId);
  return opened.runtime.reader.events(handle.sessionId, principal);
}

function resultOf(events: AnyBdkEvent[]) {
  const result = events.find((event) => event.type === "action.result");
  return result?.data as { name: string; output: unknown; isError: boolean } | undefined;
}

function replyOf(events: AnyBdkEvent[]): string {
  return (events.find((event) => event.type === "turn.completed")?.data as { result: string }).result;
}

async function info() {
  const response = await sessionRoutes.info({ opened } as AgentRequest);
  return (await response.json()) as { connections: Array<Record<string, unknown>> };
}

describe("MCP connections of a running agent", () => {
  it("reports every connection idle before first use", async () => {
    expect((await info()).connections.map(({ name, status }) => [name, status])).toEqual([
      ["broken", "idle"],
      ["echo", "idle"],
      ["quiet", "idle"],
      ["unlisted", "idle"],
      ["files", "idle"],
    ]);
  });

  it("calls an MCP tool the model names, and hands back the server's answer", async () => {
    const result = resultOf(await turn('Please run echo__say with {"text":"hi there"}'));
    expect(result).toEqual({
      toolCallId: expect.any(String),
      name: "echo__say",
      output: { content: [{ type: "text", text: "echo: hi there" }], isError: false },
      isError: false,
      durationMs: expect.any(Number),
    });
  });

  it("offers only model connections' tools, filtered, and none of a broken connection", async () => {
    const reply = replyOf(await turn("hello, what can you do?"));
    const tools = /My tools: ([^.]*)\./.exec(reply)![1].split(", ");
    expect(tools.sort()).toEqual(["echo__env", "echo__fail", "echo__say", "echo__wait", "quiet__say", "slow_echo"]);
  });

  it("passes ${NAME} templates of env to the child, resolved from the agent's environment", async () => {
    const result = resultOf(await turn('echo__env {"name":"ECHO_GREETING"}'));
    expect(result?.output).toEqual({ content: [{ type: "text", text: "hello from env" }], isError: false });
    // Only what the connection names reaches the child, not the server's whole environment.
    const leaked = resultOf(await turn('echo__env {"name":"GREETING"}'));
    expect(leaked?.output).toEqual({ content: [{ type: "text", text: "(unset)" }], isError: false });
  });

  it("stops a tool's ctx.host.mcp call with its turn instead of waiting for the server", async () => {
    const handle = await opened.runtime.startSession({ message: 'slow_echo {"ms":60000}', principal });
    for (;;) {
      const events = await opened.runtime.reader.events(handle.sessionId, principal);
      if (events.some((event) => event.type === "actions.requested")) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await opened.runtime.stop(handle.sessionId, principal);
    expect(await handle.done).toMatchObject({ status: "cancelled" });
  });

  it("turns an isError result into a failed action the turn survives", async () => {
    const events = await turn("echo__fail {}");
    expect(resultOf(events)).toMatchObject({ isError: true, output: { content: [{ type: "text", text: "the echo server refuses" }], isError: true } });
    expect(events.at(-1)?.type).toBe("session.waiting");
  });

  it("shows status, tools and the start error in info", async () => {
    const byName = Object.fromEntries((await info()).connections.map((connection) => [connection.name, connection]));
    expect(byName.echo).toMatchObject({ status: "connected", tools: ["say", "fail", "env", "wait"] });
    expect(byName.quiet).toMatchObject({ status: "connected", tools: ["say"] });
    expect(byName.broken.status).toBe("error");
    expect(byName.broken.error).toMatch(/could not start "bdk-test-no-such-command --serve": .*ENOENT/);
    // Host connections and advertiseTools: false are not opened by turns.
    expect(byName.files).toMatchObject({ status: "idle" });
    expect(byName.unlisted).toMatchObject({ status: "idle" });
  });

  it("lets host code list every connection and call host-only ones", async () => {
    const host = opened.runtime.hostServices;
    expect(host.mcp.names()).toEqual(["broken", "echo", "quiet", "unlisted", "files"]);
    expect(await host.mcp.callTool("files", "say", { text: "from host" })).toMatchObject({
      content: [{ type: "text", text: "echo: from host" }],
    });
    expect(await host.mcp.callTool("unlisted", "say", { text: "unlisted" })).toMatchObject({
      content: [{ type: "text", text: "echo: unlisted" }],
    });
  });

  it("answers a call to a broken connection or a filtered tool with an error result naming it", async () => {
    const host = opened.runtime.hostServices;
    const broken = await host.mcp.callTool("broken", "anything");
    expect(broken.isError).toBe(true);
    expect(broken.content[0].text).toMatch(/^MCP connection "broken" is unavailable: could not start/);
    const filtered = await host.mcp.callTool("quiet", "fail");
    expect(filtered).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('does not expose the tool "fail"') }] });
  });

  it("rejects an unknown connection, naming the known ones", async () => {
    await expect(opened.runtime.hostServices.mcp.callTool("nope", "say")).rejects.toMatchObject({
      name: "BdkError",
      code: "not_found",
      message: 'No MCP connection named "nope". Known: broken, echo, quiet, unlisted, files.',
    });
  });

  it("sends the child's stderr to the agent's log", async () => {
    await opened.logger.flush();
    const lines = (await opened.store.logs.list({ limit: 500 })).map((line) => line.msg);
    expect(lines).toContainEqual(expect.stringMatching(/^mcp echo: echo server ready in .*mcp-agent$/));
    expect(lines).toContainEqual(expect.stringMatching(/^mcp quiet: echo server ready in .*mcp-servers$/));
  });

  it("kills stdio children on close", async () => {
    const pid = Number((await opened.runtime.hostServices.mcp.callTool("files", "pid")).content[0].text);
    expect(processAlive(pid)).toBe(true);
    await opened.close();
    expect(processAlive(pid)).toBe(false);
    opened = undefined as unknown as OpenedAgent;
  });
});
