import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { kindOf } from "./brand.ts";
import { anonymous, bearerAuth, defineChannel, GET, localDevStrict, POST } from "./channels.ts";
import { defaultGitHubAuth, githubChannel, parseGitHubPrContinuationKey } from "./channels-github.ts";
import { slackChannel } from "./channels-slack.ts";
import { defineEval, defineEvalConfig, equals, includes, matches, satisfies } from "./evals.ts";
import { defineExtension, type ExtensionMount } from "./extensions.ts";
import { cursorCloudAgents, launchCloudAgent } from "./extensions-cursor-cloud-agents.ts";
import { cursorGrokBotAgents } from "./extensions-cursor-grokbot-agents.ts";
import { decide } from "./extensions-jev.ts";
import { defineAgent, defineInstructions, defineTool } from "./index.ts";
import { memoryHook } from "./memory.ts";
import { defineReminder } from "./reminders.ts";
import { defineSchedule } from "./schedules.ts";
import type { ToolContext } from "./tools.ts";

const savedKey = process.env.CURSOR_API_KEY;
afterEach(() => {
  if (savedKey === undefined) delete process.env.CURSOR_API_KEY;
  else process.env.CURSOR_API_KEY = savedKey;
});

const ctx = { abortSignal: new AbortController().signal } as ToolContext;

describe("define* helpers", () => {
  it("return their argument, branded with its kind and no enumerable extra key", () => {
    const agent = { model: "grok-4.5" };
    expect(defineAgent(agent)).toBe(agent);
    expect(kindOf(agent)).toBe("agent");
    expect(Object.keys(agent)).toEqual(["model"]);
    expect(kindOf(defineInstructions({ markdown: "x" }))).toBe("instructions");
    expect(kindOf(defineTool({ description: "d", execute: () => 1 }))).toBe("tool");
    expect(kindOf(defineSchedule({ cron: "* * * * *", markdown: "go" }))).toBe("schedule");
    expect(kindOf(defineReminder({ run: () => ({ action: "skip" }) }))).toBe("reminder");
    expect(kindOf(defineEval({ test() {} }))).toBe("eval");
    expect(kindOf(defineEvalConfig({ maxConcurrency: 2 }))).toBe("eval-config");
  });
});

describe("channels", () => {
  it("builds route specs from POST/GET with a spec or a bare handler", () => {
    const bodySchema = z.object({ message: z.string() });
    const handler = async () => new Response(null, { status: 202 });
    const post = POST("/review", { description: "Review a PR", bodySchema, handler });
    expect(post).toMatchObject({ method: "POST", path: "/review", description: "Review a PR", bodySchema, handler });
    const get = GET("/status/:id", handler);
    expect(get).toMatchObject({ method: "GET", path: "/status/:id", handler });
    const channel = defineChannel({ routes: [post, get] });
    expect(kindOf(channel)).toBe("channel");
  });

  it("returns plain auth-policy descriptors", () => {
    expect(localDevStrict()).toEqual({ kind: "localDevStrict" });
    expect(bearerAuth("s3cret")).toEqual({ kind: "bearer", token: "s3cret" });
    expect(anonymous()).toEqual({ kind: "anonymous" });
  });

  it("slack and github packs are branded channels carrying their config", () => {
    const slack = slackChannel({ envPrefix: "OPS", reply: { mode: "stream" } });
    expect(kindOf(slack)).toBe("channel");
    expect(slack).toMatchObject({ pack: "slack", slack: { envPrefix: "OPS" }, routes: [] });
    const github = githubChannel({ botName: "acme-bot", onPullRequest: defaultGitHubAuth });
    expect(kindOf(github)).toBe("channel");
    expect(github).toMatchObject({ pack: "github", github: { botName: "acme-bot" } });
  });

  it("parses GitHub PR continuation keys", () => {
    expect(parseGitHubPrContinuationKey("pr:acme/checkout#42")).toEqual({ owner: "acme", repo: "checkout", number: 42 });
    expect(parseGitHubPrContinuationKey("pr:my-org/repo.js#7")).toEqual({ owner: "my-org", repo: "repo.js", number: 7 });
    for (const bad of ["pr:acme#42", "acme/checkout#42", "pr:acme/checkout", "pr:acme/checkout#x", "pr:a/b/c#1"]) {
      expect(parseGitHubPrContinuationKey(bad)).toBeNull();
    }
  });

  it("defaultGitHubAuth acts for the human sender and ignores bots; its value is a principal and a hook result", () => {
    const octocat = { type: "user", id: "github:octocat" };
    expect(defaultGitHubAuth({ sender: { login: "octocat", type: "User" } })).toEqual({ ...octocat, auth: octocat });
    expect(defaultGitHubAuth({ sender: { login: "dependabot[bot]", type: "Bot" } })).toBeNull();
  });
});

describe("eval assertions", () => {
  it("includes matches substrings and RegExps and names the value seen", () => {
    expect(includes("ready").check("it is ready").passed).toBe(true);
    expect(includes(/READY/i).check("it is ready").passed).toBe(true);
    const failed = includes(/merged/).check("it is ready");
    expect(failed).toEqual({ passed: false, message: 'expected "it is ready" to satisfy includes /merged/' });
    // A global RegExp keeps no state between checks.
    const global = includes(/a/g);
    expect([global.check("a").passed, global.check("a").passed]).toEqual([true, true]);
  });

  it("matches validates with a zod schema and names the failing field", () => {
    const assertion = matches(z.object({ verdict: z.enum(["approve", "comment"]) }));
    expect(assertion.check({ verdict: "approve" }).passed).toBe(true);
    const failed = assertion.check({ verdict: "merge" });
    expect(failed.passed).toBe(false);
    expect(failed.message).toContain("{ verdict: 'merge' }");
    expect(failed.message).toContain("verdict:");
  });

  it("satisfies runs a predicate with a label; a throw fails", () => {
    expect(satisfies((value) => value === 3, "is three").check(3)).toEqual({ passed: true, message: "3: is three" });
    expect(satisfies((value) => value === 3, "is three").check(4)).toEqual({ passed: false, message: "4 fails: is three" });
    const thrown = satisfies(() => {
      throw new Error("nope");
    }).check("x");
    expect(thrown.passed).toBe(false);
    expect(thrown.message).toContain("threw nope");
  });

  it("equals compares deeply", () => {
    expect(equals({ a: [1, 2] }).check({ a: [1, 2] }).passed).toBe(true);
    expect(equals({ a: [1, 2] }).check({ a: [1, 3] })).toEqual({ passed: false, message: "expected { a: [ 1, 2 ] }, got { a: [ 1, 3 ] }" });
  });
});

describe("memoryHook", () => {
  it("is a branded hook carrying its options with defaults", () => {
    const hook = memoryHook();
    expect(kindOf(hook)).toBe("hook");
    expect(hook.memory).toEqual({ scope: "principal", maxNotes: 20 });
    expect(memoryHook({ scope: "agent", maxNotes: 5 }).memory).toEqual({ scope: "agent", maxNotes: 5 });
  });
});

describe("defineExtension", () => {
  const ci = defineExtension({
    name: "ci",
    configSchema: z.object({ repo: z.string(), retries: z.number().default(2) }),
    instructions: (config) => `CI for ${config.repo}`,
    tools: (config) => ({
      status: defineTool({ description: `Status of ${config.repo} (${config.retries} retries)`, execute: () => "green" }),
    }),
  });

  it("is a branded factory whose mount carries validated config and resolved contributions", () => {
    expect(kindOf(ci)).toBe("extension");
    const mount = ci({ repo: "acme/checkout" });
    expect(kindOf(mount)).toBe("extension-mount");
    expect(mount.error).toBeUndefined();
    expect(mount.config).toEqual({ repo: "acme/checkout", retries: 2 });
    expect(mount.contributions.instructions).toBe("CI for acme/checkout");
    expect(mount.contributions.tools.status.description).toBe("Status of acme/checkout (2 retries)");
  });

  it("reports invalid config on the mount instead of throwing", () => {
    const mount = (ci as unknown as (config: unknown) => ExtensionMount)({ repo: 7 });
    expect(mount.error).toMatch(/^invalid config for extension "ci": repo: /);
    expect(mount.contributions.tools).toEqual({});
  });

  it("reports a contribution that throws", () => {
    const broken = defineExtension({
      name: "broken",
      tools: () => {
        throw new Error("no token");
      },
    });
    expect(broken().error).toBe('extension "broken" failed to mount: no token');
  });
});

describe("first-party mounts", () => {
  it("cursorCloudAgents contributes launch/get/list/dump/reply/cancel and the handoff skill", () => {
    const mount = cursorCloudAgents({ cloud: { repos: [{ url: "https://github.com/acme/checkout", startingRef: "main" }], autoCreatePR: true } });
    expect(mount.error).toBeUndefined();
    expect(Object.keys(mount.contributions.tools)).toEqual(["launch", "get", "list", "dump", "reply", "cancel"]);
    expect(Object.keys(mount.contributions.skills)).toEqual(["handoff"]);
  });

  it("cursorCloudAgents rejects a config without repos", () => {
    expect((cursorCloudAgents as unknown as (config: unknown) => ExtensionMount)({ cloud: {} }).error).toMatch(/cloud\.repos/);
  });

  it("tools answer with an error result naming CURSOR_API_KEY when it is unset", async () => {
    delete process.env.CURSOR_API_KEY;
    const cloud = cursorCloudAgents({ cloud: { repos: [{ url: "https://github.com/acme/checkout" }] } });
    const result = await cloud.contributions.tools.list.execute({}, ctx);
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining("CURSOR_API_KEY") }] });
    await expect(launchCloudAgent(ctx, { prompt: "x", cloud: { repos: [{ url: "https://github.com/acme/checkout" }] } })).rejects.toThrow(/CURSOR_API_KEY/);

    const grok = cursorGrokBotAgents({ agents: ["vat-books"] });
    expect(Object.keys(grok.contributions.tools).sort()).toEqual(["ask", "check", "interrupt", "list"]);
    expect(await grok.contributions.tools.ask.execute({ agent: "vat-books", message: "hi" }, ctx)).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining("CURSOR_API_KEY") }],
    });

    const jev = decide();
    expect(Object.keys(jev.contributions.tools)).toEqual(["decide"]);
    expect(await jev.contributions.tools.decide.execute({ question: "q", options: ["a", "b"] }, ctx)).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining("CURSOR_API_KEY") }],
    });
  });

  it("cursorCloudAgents calls the Cloud Agents API with the key when it is set", async () => {
    const { createServer } = await import("node:http");
    const requests: { method?: string; url?: string; auth?: string; body: string }[] = [];
    const server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        requests.push({ method: request.method, url: request.url, auth: request.headers.authorization, body });
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ id: "bc_1", status: "CREATING" }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    process.env.CURSOR_API_KEY = "key_123";
    const savedBase = process.env.CURSOR_API_BASE_URL;
    process.env.CURSOR_API_BASE_URL = `http://127.0.0.1:${port}`;
    try {
      const cloud = cursorCloudAgents({ cloud: { repos: [{ url: "https://github.com/acme/checkout", startingRef: "main" }], autoCreatePR: true } });
      const result = await cloud.contributions.tools.launch.execute({ prompt: "Fix the typo" }, ctx);
      expect(result).toEqual({ id: "bc_1", status: "CREATING" });
      expect(requests[0]).toMatchObject({ method: "POST", url: "/v0/agents", auth: "Bearer key_123" });
      expect(JSON.parse(requests[0].body)).toMatchObject({
        prompt: { text: "Fix the typo" },
        source: { repository: "https://github.com/acme/checkout", ref: "main" },
        target: { autoCreatePr: true },
      });
    } finally {
      if (savedBase === undefined) delete process.env.CURSOR_API_BASE_URL;
      else process.env.CURSOR_API_BASE_URL = savedBase;
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
