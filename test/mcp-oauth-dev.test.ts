/**
 * The dev Connect flow of an `oauth: true` connection against a real
 * `bdk serve --dev` and an OAuth-protected MCP server on loopback, with the
 * test as the browser: a call that needs authorization parks its turn and
 * records `action.authorization_required`; authorize + callback store the
 * tokens; the same call runs again and the turn goes on. Without --dev the
 * call is an error result naming `bdk mcp oauth`.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenedAgent, openAgent } from "../server/host/open-agent.ts";
import { devRoutes } from "../server/http/dev-routes.ts";
import { removeTempProjects, tempProject } from "../server/load/testing/temp-project.ts";
import { oauthFile } from "../server/mcp/oauth-store.ts";
import type { AnyBdkEvent, Principal } from "../server/protocol/events.ts";
import { readNdjson, type RunningServer, startServer } from "./support/bdk-server.ts";
import { type OAuthMcpServer, startOAuthMcpServer } from "./support/oauth-mcp-server.ts";

let mcpServer: OAuthMcpServer;
let project: string;
let server: RunningServer;

beforeAll(async () => {
  mcpServer = await startOAuthMcpServer();
  project = tempProject({
    "bot/agent.ts": 'import { defineAgent } from "@cursor/bdk";\nexport default defineAgent({ name: "oauth-dev", model: "scripted", tools: [] });\n',
    "bot/instructions.md": "You relay questions to MCP servers.\n",
    "bot/mcp-connections/linear.ts": `import { defineConnection } from "@cursor/bdk/connections";\nexport default defineConnection({ url: "${mcpServer.url}", oauth: true });\n`,
  });
  server = await startServer({ dir: project, args: ["--dev"] });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await mcpServer?.close();
  if (server) rmSync(server.stateRoot, { recursive: true, force: true });
  removeTempProjects();
});

const post = (url: string, body?: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body ?? {}) });

async function startTurn(message: string): Promise<string> {
  const started = (await (await post(`${server.url}/v1/session`, { message })).json()) as { sessionId: string };
  return started.sessionId;
}

function eventsUntil(sessionId: string, type: AnyBdkEvent["type"]): Promise<AnyBdkEvent[]> {
  return fetch(`${server.url}/v1/session/${sessionId}/stream`).then((response) =>
    readNdjson<AnyBdkEvent>(response, (event) => event.type === type),
  );
}

function resultOf(events: AnyBdkEvent[]): { output: unknown; isError: boolean } | undefined {
  return events.find((event) => event.type === "action.result")?.data as { output: unknown; isError: boolean } | undefined;
}

/** Connect, as the playground does, then the browser: the authorization page redirects to the callback. */
async function connect(connection: string): Promise<{ status: number; page: string; callbackUrl: string }> {
  const authorize = await post(`${server.url}/v1/dev/mcp/${connection}/authorize`);
  const body = (await authorize.json()) as { ok: boolean; authorizationUrl: string };
  expect(body).toMatchObject({ ok: true, authorizationUrl: expect.any(String) });
  const approval = await fetch(body.authorizationUrl, { redirect: "manual" });
  expect(approval.status).toBe(302);
  const callbackUrl = approval.headers.get("location")!;
  const callback = await fetch(callbackUrl);
  return { status: callback.status, page: await callback.text(), callbackUrl };
}

describe("Connect under serve --dev", () => {
  it("parks a never-authorized connection's stand-in call, then continues after the flow", async () => {
    const sessionId = await startTurn("linear__connect please");
    const parked = await eventsUntil(sessionId, "action.authorization_required");
    const call = parked.find((event) => event.type === "actions.requested");
    const notice = parked[parked.length - 1];
    expect(notice).toMatchObject({
      turnId: call?.turnId,
      data: { connection: "linear", authorizePath: "/v1/dev/mcp/linear/authorize", toolCallId: (call?.data as { actions: Array<{ toolCallId: string }> }).actions[0].toolCallId },
    });
    expect(resultOf(parked)).toBeUndefined();

    const connected = await connect("linear");
    expect(connected.callbackUrl).toMatch(new RegExp(`^${server.url}/v1/dev/mcp/linear/callback\\?`));
    expect(connected.status).toBe(200);
    expect(connected.page).toContain("Connected linear. You can close this tab.");
    expect(existsSync(oauthFile(server.stateRoot, "linear"))).toBe(true);

    const events = await eventsUntil(sessionId, "session.waiting");
    expect(events.some((event) => event.type === "turn.completed")).toBe(true);
    expect(resultOf(events)).toEqual({
      output: { content: [{ type: "text", text: "Connected linear. Its tools are offered from the next message on: linear__say, linear__whoami." }], isError: false },
      isError: false,
      name: "linear__connect",
      toolCallId: expect.any(String),
      durationMs: expect.any(Number),
    });
  }, 60_000);

  it("parks a real tool call whose tokens were revoked and retries it with the new ones", async () => {
    const before = await startTurn('linear__say {"text":"one"}');
    expect(resultOf(await eventsUntil(before, "session.waiting"))?.output).toEqual({ content: [{ type: "text", text: "oauth: one" }], isError: false });

    mcpServer.provider.revokeAll();
    const sessionId = await startTurn('linear__say {"text":"two"}');
    await eventsUntil(sessionId, "action.authorization_required");
    expect((await connect("linear")).status).toBe(200);
    const events = await eventsUntil(sessionId, "session.waiting");
    expect(resultOf(events)).toMatchObject({ output: { content: [{ type: "text", text: "oauth: two" }], isError: false }, isError: false });
    expect(events.filter((event) => event.type === "action.result")).toHaveLength(1);
    expect(events.some((event) => event.type === "turn.completed")).toBe(true);
  }, 60_000);

  it("ends a parked turn cancelled when it is stopped", async () => {
    mcpServer.provider.revokeAll();
    const sessionId = await startTurn('linear__say {"text":"three"}');
    await eventsUntil(sessionId, "action.authorization_required");
    expect((await post(`${server.url}/v1/session/${sessionId}/stop`)).status).toBe(202);
    const events = await eventsUntil(sessionId, "session.waiting");
    expect(events.find((event) => event.type === "turn.failed")?.data).toMatchObject({ status: "cancelled", code: "cancelled" });
  }, 60_000);

  it("takes the first of two Connect tabs to come back; the other gets a 400 and the working client stays", async () => {
    mcpServer.provider.revokeAll();
    const sessionId = await startTurn('linear__say {"text":"four"}');
    await eventsUntil(sessionId, "action.authorization_required");
    const tabs = await Promise.all(
      [1, 2].map(async () => {
        const body = (await (await post(`${server.url}/v1/dev/mcp/linear/authorize`)).json()) as { authorizationUrl: string };
        return (await fetch(body.authorizationUrl, { redirect: "manual" })).headers.get("location")!;
      }),
    );
    expect((await fetch(tabs[0])).status).toBe(200);
    expect(resultOf(await eventsUntil(sessionId, "session.waiting"))?.output).toEqual({ content: [{ type: "text", text: "oauth: four" }], isError: false });
    const late = await fetch(tabs[1]);
    expect(late.status).toBe(400);
    expect(await late.text()).toContain("Click Connect again");
    const after = await startTurn('linear__say {"text":"five"}');
    expect(resultOf(await eventsUntil(after, "session.waiting"))?.output).toEqual({ content: [{ type: "text", text: "oauth: five" }], isError: false });
  }, 60_000);

  it("refuses to start a flow for another site's page", async () => {
    const attempts: Record<string, string>[] = [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }];
    for (const headers of attempts) {
      const response = await fetch(`${server.url}/v1/dev/mcp/linear/authorize`, { method: "POST", headers });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ ok: false, error: "forbidden" });
    }
  });

  it("answers a refusal or an unknown state with a 400 page", async () => {
    mcpServer.provider.denyNext = true;
    const denied = await connect("linear");
    expect(denied.status).toBe(400);
    expect(denied.page).toContain("the user said no");

    const stale = await fetch(`${server.url}/v1/dev/mcp/linear/callback?code=x&state=nope`);
    expect(stale.status).toBe(400);
    expect(stale.headers.get("content-type")).toContain("text/html");
    const page = await stale.text();
    expect(page).toContain("Click Connect again");
    expect(page).not.toContain("    at ");

    const unknown = await post(`${server.url}/v1/dev/mcp/nope/authorize`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: "not_found", message: expect.stringContaining("OAuth connections of this agent: linear") });
  }, 60_000);
});

describe("without --dev", () => {
  const principal: Principal = { type: "user", id: "tester" };
  let opened: OpenedAgent;
  let stateRoot: string;

  beforeAll(async () => {
    // The dev server's tokens (connected by the tests above), so the connection lists its tools.
    await connect("linear");
    stateRoot = mkdtempSync(path.join(os.tmpdir(), "bdk-oauth-nodev-"));
    mkdirSync(path.dirname(oauthFile(stateRoot, "linear")), { recursive: true });
    copyFileSync(oauthFile(server.stateRoot, "linear"), oauthFile(stateRoot, "linear"));
    opened = await openAgent(project, { stateRoot });
  }, 60_000);

  afterAll(async () => {
    await opened?.close();
    if (stateRoot) rmSync(stateRoot, { recursive: true, force: true });
  });

  async function turn(message: string): Promise<AnyBdkEvent[]> {
    const handle = await opened.runtime.startSession({ message, principal });
    await handle.done;
    await opened.runtime.idle(handle.sessionId);
    return opened.runtime.reader.events(handle.sessionId, principal);
  }

  it("gives the call an error result naming bdk mcp oauth", async () => {
    expect(resultOf(await turn('linear__say {"text":"four"}'))?.output).toEqual({ content: [{ type: "text", text: "oauth: four" }], isError: false });
    mcpServer.provider.revokeAll();
    const events = await turn('linear__say {"text":"five"}');
    expect(events.some((event) => event.type === "action.authorization_required")).toBe(false);
    const result = resultOf(events);
    expect(result?.isError).toBe(true);
    expect(JSON.stringify(result?.output)).toContain("run bdk mcp oauth linear");
    expect(events.some((event) => event.type === "turn.completed")).toBe(true);
  }, 60_000);

  it("has no dev routes", async () => {
    const request = new Request("http://127.0.0.1/v1/dev/mcp/linear/authorize", { method: "POST" });
    const call = devRoutes.devAuthorizeConnection({ request, params: { connection: "linear" }, opened, principal, seesAll: false, basePath: "" });
    await expect(call).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("Connect on a dev server reached remotely with a bearer token", () => {
  let remote: RunningServer;
  const asRemote = { "x-forwarded-for": "198.51.100.7" };

  beforeAll(async () => {
    remote = await startServer({ dir: project, args: ["--dev", "--bearer-token", "dev-secret"] });
  }, 180_000);
  afterAll(async () => {
    await remote?.stop();
    if (remote) rmSync(remote.stateRoot, { recursive: true, force: true });
  });

  it("starts the flow only with the token, and completes it from the browser's redirect, which carries none", async () => {
    const refused = await fetch(`${remote.url}/v1/dev/mcp/linear/authorize`, { method: "POST", headers: asRemote });
    expect(refused.status).toBe(401);
    const authorize = await fetch(`${remote.url}/v1/dev/mcp/linear/authorize`, {
      method: "POST",
      headers: { ...asRemote, authorization: "Bearer dev-secret" },
    });
    const { authorizationUrl } = (await authorize.json()) as { authorizationUrl: string };
    const callbackUrl = (await fetch(authorizationUrl, { redirect: "manual" })).headers.get("location")!;
    const callback = await fetch(callbackUrl, { headers: asRemote });
    expect(callback.status).toBe(200);
    expect(await callback.text()).toContain("Connected linear.");
    expect(existsSync(oauthFile(remote.stateRoot, "linear"))).toBe(true);
  }, 60_000);
});
