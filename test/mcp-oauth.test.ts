/**
 * OAuth connections end to end: an OAuth-protected MCP server on loopback,
 * an agent that fails clearly before authorization, `bdk mcp oauth` as a real
 * child process with the test acting as the browser, then calls that work,
 * a refreshed access token, and a revoked one.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenedAgent, openAgent } from "../server/host/open-agent.ts";
import { readOAuthRecord, oauthFile } from "../server/mcp/oauth-store.ts";
import type { AnyBdkEvent, Principal } from "../server/protocol/events.ts";
import { removeTempProjects, tempProject } from "../server/load/testing/temp-project.ts";
import { type OAuthMcpServer, startOAuthMcpServer } from "./support/oauth-mcp-server.ts";
import { runBdk, startBdk } from "./support/run-process.ts";

const principal: Principal = { type: "user", id: "tester" };
const NEEDS_AUTHORIZATION = 'connection "linear" needs authorization: run bdk mcp oauth linear';
let server: OAuthMcpServer;
let project: string;
let stateRoot: string;
let opened: OpenedAgent;

beforeAll(async () => {
  server = await startOAuthMcpServer();
  project = tempProject({
    "bot/agent.ts": 'import { defineAgent } from "@cursor/bdk";\nexport default defineAgent({ name: "oauth-agent", model: "scripted", tools: [] });\n',
    "bot/instructions.md": "You relay questions to MCP servers.\n",
    "bot/mcp-connections/linear.ts": `import { defineConnection } from "@cursor/bdk/connections";\nexport default defineConnection({ url: "${server.url}", oauth: true });\n`,
    "bot/host-connections/plain.ts": `import { defineConnection } from "@cursor/bdk/connections";\nexport default defineConnection({ url: "${server.url}" });\n`,
  });
  stateRoot = mkdtempSync(path.join(os.tmpdir(), "bdk-mcp-oauth-"));
  opened = await openAgent(project, { stateRoot });
});

afterAll(async () => {
  await opened?.close();
  await server?.close();
  rmSync(stateRoot, { recursive: true, force: true });
  removeTempProjects();
});

const text = (result: { content: Array<{ text?: string }> }) => result.content.map((part) => part.text).join("\n");

async function turn(message: string): Promise<AnyBdkEvent[]> {
  const handle = await opened.runtime.startSession({ message, principal });
  await handle.done;
  await opened.runtime.idle(handle.sessionId);
  return opened.runtime.reader.events(handle.sessionId, principal);
}

/** `bdk mcp oauth linear --no-open`, with the test as the browser: it follows the printed URL back to the CLI's callback. */
async function authorizeWithCli(): Promise<{ code: number | null; stdout: string; stderr: string; callbackStatus: number }> {
  const cli = startBdk(["mcp", "oauth", "linear", "--dir", project, "--state-root", stateRoot, "--no-open"]);
  const [, authorizationUrl] = await cli.waitForOutput(/Open this URL to authorize: (\S+)\n/);
  const approval = await fetch(authorizationUrl, { redirect: "manual" });
  expect(approval.status).toBe(302);
  const callback = await fetch(approval.headers.get("location")!);
  await callback.text();
  return { ...(await cli.done), callbackStatus: callback.status };
}

describe("an oauth: true connection", () => {
  it("fails with a pointer to the CLI before it is authorized, without contacting the server", async () => {
    const result = await opened.mcp.callTool("linear", "say", { text: "hi" });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(`MCP connection "linear" is unavailable: ${NEEDS_AUTHORIZATION}`);
    expect(opened.mcp.status().find((status) => status.name === "linear")).toEqual({ name: "linear", status: "error", error: NEEDS_AUTHORIZATION });
    expect(server.provider.registeredClients).toBe(0);
    expect(server.authorizedRequests).toBe(0);
  });

  it("rejects an unknown connection and a connection without oauth as usage errors", async () => {
    const unknown = await runBdk(["mcp", "oauth", "nope", "--dir", project, "--state-root", stateRoot]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no connection named "nope"; OAuth connections of this agent: linear');

    const plain = await runBdk(["mcp", "oauth", "plain", "--dir", project, "--state-root", stateRoot]);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('connection "plain" is not a remote connection with oauth: true; OAuth connections of this agent: linear');

    const noName = await runBdk(["mcp", "oauth", "--dir", project]);
    expect(noName.code).toBe(2);
  });

  it("is authorized by bdk mcp oauth, which saves the tokens under the state root", async () => {
    const authorized = await authorizeWithCli();
    const file = oauthFile(stateRoot, "linear");
    expect(authorized).toMatchObject({ code: 0, callbackStatus: 200 });
    expect(authorized.stdout).toContain(`Authorized linear; tokens saved in ${file}.`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const record = JSON.parse(readFileSync(file, "utf8"));
    expect(record).toMatchObject({ serverUrl: server.url, tokens: { access_token: expect.any(String), refresh_token: expect.any(String) } });
    // The run's registration and verifier were promoted with its tokens.
    expect(record.pending).toBeUndefined();
    expect(record.clientInformation).toMatchObject({ client_id: expect.any(String), redirect_uris: [record.redirectUrl] });
    expect(server.provider.grants).toEqual(["authorization_code"]);
  });

  it("then works for host code and turns, without waiting for the retry delay", async () => {
    expect(await opened.mcp.callTool("linear", "say", { text: "hi" })).toEqual({ content: [{ type: "text", text: "oauth: hi" }] });
    const events = await turn('linear__say {"text":"from a turn"}');
    const result = events.find((event) => event.type === "action.result")?.data as { output: unknown } | undefined;
    expect(result?.output).toEqual({ content: [{ type: "text", text: "oauth: from a turn" }], isError: false });
  });

  it("reports a refusal in the browser, exits 1 and keeps the working tokens", async () => {
    const file = oauthFile(stateRoot, "linear");
    const before = JSON.parse(readFileSync(file, "utf8"));
    server.provider.denyNext = true;
    const denied = await authorizeWithCli();
    expect(denied.callbackStatus).toBe(400);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('the authorization server answered "access_denied": the user said no');
    const after = JSON.parse(readFileSync(file, "utf8"));
    expect(after.tokens).toEqual(before.tokens);
    expect(after.clientInformation).toEqual(before.clientInformation);
    expect(after.pending).toMatchObject({ codeVerifier: expect.any(String) });
    expect(await opened.mcp.callTool("linear", "say", { text: "still here" })).toEqual({ content: [{ type: "text", text: "oauth: still here" }] });
  });

  it("refreshes an expired access token with the stored refresh token", async () => {
    const file = oauthFile(stateRoot, "linear");
    const before = (await readOAuthRecord(file, server.url)).tokens?.access_token;
    server.provider.expireAccessTokens();
    expect(await opened.mcp.callTool("linear", "say", { text: "again" })).toEqual({ content: [{ type: "text", text: "oauth: again" }] });
    expect(server.provider.grants).toEqual(["authorization_code", "refresh_token"]);
    const after = (await readOAuthRecord(file, server.url)).tokens?.access_token;
    expect(after).toEqual(expect.any(String));
    expect(after).not.toBe(before);
  });

  it("asks for the CLI again when the refresh token is revoked too", async () => {
    server.provider.revokeAll();
    const result = await opened.mcp.callTool("linear", "say", { text: "revoked" });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(NEEDS_AUTHORIZATION);
    expect((await readOAuthRecord(oauthFile(stateRoot, "linear"), server.url)).tokens).toBeUndefined();
    expect(text(await opened.mcp.callTool("linear", "say", { text: "still revoked" }))).toBe(`MCP connection "linear" is unavailable: ${NEEDS_AUTHORIZATION}`);
  });
});
