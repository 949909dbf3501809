/**
 * The `extensions-default-import` field fixture: the four first-party
 * extensions default-imported with a model object, as published projects
 * write them, through validate, info, call, run and serve. A loopback server
 * stands in for the Cursor Cloud Agents API; the GrokBot "vat-books" is a
 * real second bot served on loopback, reached by name alone.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyProject, removeTempProjects, tempProject } from "../server/load/testing/temp-project.ts";
import type { AnyBdkEvent } from "../server/protocol/events.ts";
import { serve, type ServeHandle } from "../web/serve.ts";
import { KIT_DIR } from "./support/bdk-server.ts";
import { servedChild } from "./support/served-project.ts";
import { type PlatformApiServer, startPlatformApiServer } from "./support/platform-api-server.ts";
import { runBdk } from "./support/run-process.ts";

const FIELD = path.join(KIT_DIR, "test", "fixtures", "field");
const HELPER_REPLY = "I am vat-books, running on the offline scripted model.";

let dir: string;
let platform: PlatformApiServer;
let helpers: ServeHandle;
let env: Record<string, string>;

beforeAll(async () => {
  dir = copyProject(path.join(FIELD, "extensions-default-import"));
  platform = await startPlatformApiServer();
  // A folder of one agent, served in multi mode: the bot is at <url>/vat-books/v1/...
  const helpersRoot = tempProject({ "vat-books/bot/instructions.md": "You answer VAT questions." });
  helpers = await serve(helpersRoot, { port: 0, env: { BDK_MODEL: "scripted" } });
  env = {
    BDK_MODEL: "scripted",
    CURSOR_API_KEY: "key_field",
    CURSOR_API_BASE_URL: platform.url,
    GROKBOT_AGENTS_URL: helpers.url,
  };
}, 240_000);

afterAll(async () => {
  await helpers?.close();
  await platform?.close();
  removeTempProjects();
});

const launches = () => platform.requests.filter((request) => request.path === "/v0/agents");

describe("extensions-default-import", () => {
  it("validate: default imports and a model object load with no diagnostics", async () => {
    const result = await runBdk(["validate", "--dir", dir], env);
    expect(result.stdout.trim()).toBe("release-helper: valid (0 errors, 0 warnings)");
    expect(result.code).toBe(0);
  });

  it("info: each mount and what it contributes", async () => {
    const result = await runBdk(["info", "--dir", dir, "--json"], env);
    type Mount = { namespace: string; extension: string; contributes: { tools: string[]; skills: string[] } };
    const info = JSON.parse(result.stdout) as { extensions: Mount[] };
    const mounts = info.extensions.map(({ namespace, extension, contributes }) => ({ namespace, extension, tools: contributes.tools, skills: contributes.skills }));
    expect(mounts).toEqual([
      {
        namespace: "cloud",
        extension: "cursor-cloud-agents",
        tools: ["cloud__launch", "cloud__get", "cloud__list", "cloud__dump", "cloud__reply", "cloud__cancel"],
        skills: ["cloud__handoff"],
      },
      { namespace: "grokbot", extension: "cursor-grokbot-agents", tools: ["grokbot__list", "grokbot__ask", "grokbot__check", "grokbot__interrupt"], skills: [] },
      { namespace: "jev", extension: "jev", tools: ["jev__decide"], skills: [] },
      { namespace: "notion", extension: "cursor-plugin", tools: [], skills: ["notion__search"] },
    ]);
  });

  it("call cloud__launch: the configured repository, ref, autoCreatePR, the model id and the name reach the API", async () => {
    const input = JSON.stringify({ prompt: "Fix the flaky checkout test", name: "Flaky checkout test" });
    const result = await runBdk(["call", "cloud__launch", "--dir", dir, "--input", input], env);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ isError: false, result: { id: expect.stringMatching(/^bc_/), status: "CREATING" } });
    const launch = launches().at(-1)!;
    expect(launch.headers.authorization).toBe("Bearer key_field");
    expect(launch.body).toEqual({
      name: "Flaky checkout test",
      prompt: { text: "Fix the flaky checkout test" },
      source: { repository: "https://github.com/acme/checkout", ref: "main" },
      target: { autoCreatePr: true },
      model: "claude-4-sonnet",
    });
  });

  it("call hand_off_pr: a project tool's launchCloudAgent(ctx, { name, prompt, model, cloud: { repos: [{ url, prUrl }] } })", async () => {
    const input = JSON.stringify({ prUrl: "https://github.com/acme/checkout/pull/7", task: "Address the review comments" });
    const result = await runBdk(["call", "hand_off_pr", "--dir", dir, "--input", input], env);
    expect(result.code).toBe(0);
    expect(launches().at(-1)!.body).toEqual({
      name: "Finish checkout/pull/7",
      prompt: { text: "Address the review comments" },
      source: { prUrl: "https://github.com/acme/checkout/pull/7" },
      target: { autoCreatePr: false },
      model: "claude-4-sonnet",
    });
  });

  it("run: grokbot__ask without an agent (the only bot) waits wait_seconds for the other bot's reply", async () => {
    const message = 'grokbot__ask {"message": "What is the VAT rate in Ireland?", "wait_seconds": 60}';
    const result = await runBdk(["run", "--dir", dir, "--message", message, "--json"], env);
    expect(result.code).toBe(0);
    const { toolCalls, reply } = JSON.parse(result.stdout) as { reply: string; toolCalls: { name: string; isError: boolean; output: unknown }[] };
    expect(toolCalls).toEqual([
      {
        name: "grokbot__ask",
        input: { message: "What is the VAT rate in Ireland?", wait_seconds: 60 },
        isError: false,
        output: { agent: "vat-books", sessionId: expect.stringMatching(/^ses_/), status: "completed", reply: expect.stringContaining(HELPER_REPLY) },
      },
    ]);
    expect(reply).toContain(HELPER_REPLY);
  });
});

describe("extensions-default-import under bdk serve", () => {
  const served = servedChild(() => ({ dir, env }));

  const post = async (route: string, body: unknown) =>
    (await (await fetch(`${served.server.url}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json()) as Record<
      string,
      string
    >;

  /** The output of the session's first call of `name`, once the turn that made it has ended. */
  async function toolResult(sessionId: string, name: string): Promise<Record<string, unknown>> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const events = served.store.events.list(sessionId) as AnyBdkEvent[];
      const result = events.find((event) => event.type === "action.result" && event.data.name === name);
      const ended = result && events.some((event) => event.index > result.index && event.type === "turn.completed");
      if (result && ended) return (result.data as { output: Record<string, unknown> }).output;
      if (Date.now() > deadline) throw new Error(`no ${name} result in ${sessionId}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it("lists the mounts in GET /v1/info", async () => {
    const info = (await (await fetch(`${served.server.url}/v1/info`)).json()) as { extensions: { namespace: string }[] };
    expect(info.extensions.map((extension) => extension.namespace)).toEqual(["cloud", "grokbot", "jev", "notion"]);
  });

  it("check and interrupt default to the last conversation of this session; the bot may be named in any case", async () => {
    const started = await post("/v1/session", { message: 'grokbot__ask {"agent": "VAT-Books", "message": "Do I charge VAT on exports?"}' });
    const asked = await toolResult(started.sessionId, "grokbot__ask");
    expect(asked).toMatchObject({ agent: "vat-books", sessionId: expect.stringMatching(/^ses_/) });

    const followed = await post(`/v1/session/${started.sessionId}`, {
      message: 'grokbot__check {"wait_seconds": 60}',
      continuationToken: started.continuationToken,
    });
    const checked = await toolResult(started.sessionId, "grokbot__check");
    expect(checked).toEqual({ agent: "vat-books", sessionId: asked.sessionId, status: "completed", reply: expect.stringContaining(HELPER_REPLY) });

    await post(`/v1/session/${started.sessionId}`, { message: "grokbot__interrupt {}", continuationToken: followed.continuationToken });
    expect(await toolResult(started.sessionId, "grokbot__interrupt")).toEqual({ agent: "vat-books", sessionId: asked.sessionId, status: "idle" });
  });

  it("a direct call of grokbot__check without an earlier ask names what is missing", async () => {
    const response = await post("/v1/tools/grokbot__check", { input: {} });
    expect(response).toMatchObject({ ok: true, isError: true });
    expect(JSON.stringify(response)).toContain("No conversation was started in this session");
  });
});

describe("default-import-mistake", () => {
  it("validate names the import, the module and the fix, never the transpiler's text", async () => {
    const mistaken = copyProject(path.join(FIELD, "default-import-mistake"));
    const result = await runBdk(["validate", "--dir", mistaken], env);
    expect(result.code).toBe(1);
    // Reported once, at the import, by the import scan (the load failure it causes is not repeated).
    expect(result.stdout).toContain(
      'bot/tools/ping.ts:2  imports a default export from @cursor/bdk/tools, which does not export it\n         It has no default export. Import it by name: import { defineTool } from "@cursor/bdk/tools".',
    );
    expect(result.stdout).toContain('It has no default export. Import it by name: import { cursorPlugin } from "@cursor/bdk/extensions".');
    expect(result.stdout).toContain("mistaken-imports: invalid (2 errors, 0 warnings)");
    expect(result.stdout).not.toMatch(/\(0 ?, ?_/);
  });
});
