/**
 * `bdk manifest`: deployment metadata derived from the project — model,
 * secrets (declared, model credentials, connection templates, channel packs,
 * process.env reads), egress, routes, schedules and the env variables.
 */
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadAgent } from "../server/load/load-agent.ts";
import { removeTempProjects, tempProject } from "../server/load/testing/temp-project.ts";
import { deploymentManifest, type DeploymentManifest } from "../server/manifest/deployment-manifest.ts";
import { runBdk } from "./support/run-process.ts";

afterAll(removeTempProjects);

function bdk(args: string[], env: Record<string, string> = {}) {
  return runBdk(args, env);
}

async function manifestOf(dir: string): Promise<DeploymentManifest> {
  const loaded = await loadAgent(dir);
  expect(loaded.diagnostics.filter((diagnostic) => diagnostic.severity === "error")).toEqual([]);
  return deploymentManifest(loaded.agent!);
}

const envNamed = (manifest: DeploymentManifest, name: string) => manifest.env.find((variable) => variable.name === name);

describe("bdk manifest on bot-examples/kitchen-sink", () => {
  it("prints the model, hosting, routes, schedules and env as JSON", async () => {
    const result = await bdk(["manifest", "--dir", "bot-examples/kitchen-sink"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const manifest = JSON.parse(result.stdout) as DeploymentManifest;
    expect(manifest).toMatchObject({
      name: "kitchen-sink",
      model: { id: "grok-4.5", params: [{ id: "effort", value: "high" }, { id: "fast", value: "true" }] },
      modelFallbacks: [],
    });
    expect(manifest.version).toMatch(/^[0-9a-f]{12}$/);
    expect(manifest.hosting.secretNames).toEqual(expect.arrayContaining(["SHOP_API_TOKEN", "XAI_API_KEY"]));
    expect(manifest.hosting.egressDomains).toEqual(expect.arrayContaining(["api.shop.example", "api.x.ai"]));
    expect(manifest.channels).toContainEqual({
      id: "orders",
      routes: [
        expect.objectContaining({
          method: "POST",
          path: "/v1/channels/orders/question",
          description: "Ask about an order on behalf of a customer.",
        }),
      ],
    });
    expect(manifest.schedules).toEqual(
      expect.arrayContaining([
        { name: "morning-digest", cron: "0 8 * * 1-5", kind: "markdown" },
        { name: "order-sweep", cron: "*/15 * * * *", kind: "handler" },
      ]),
    );
    expect(envNamed(manifest, "XAI_API_KEY")).toEqual({ name: "XAI_API_KEY", secret: true, required: true, usedBy: ["model grok-4.5"] });
    expect(envNamed(manifest, "SHOP_API_TOKEN")).toMatchObject({ secret: true, required: true, usedBy: ["hosting.secretNames"] });
    expect(envNamed(manifest, "BDK_MODEL")).toMatchObject({ secret: false, required: false });
    expect(manifest.env.map((variable) => variable.name)).toEqual([...manifest.env.map((variable) => variable.name)].sort());
  });

  it("is the same whatever the environment holds", async () => {
    const plain = await bdk(["manifest", "--dir", "bot-examples/kitchen-sink"]);
    const withKeys = await bdk(["manifest", "--dir", "bot-examples/kitchen-sink"], { XAI_API_KEY: "xai-test", BDK_MODEL: "scripted" });
    expect(withKeys.stdout).toBe(plain.stdout);
  });
});

describe("secrets a project adds", () => {
  it("collects connection templates, pack variables, model credentials and process.env reads", async () => {
    const dir = tempProject({
      "package.json": '{ "name": "ops-bot", "type": "module" }',
      "bot/instructions.md": "You help the ops team.",
      "bot/agent.ts": `
        import { defineAgent } from "@cursor/bdk";
        export default defineAgent({
          model: "anthropic/claude-sonnet-4-5",
          modelFallbacks: ["openai/gpt-5"],
          hosting: { secretNames: ["PAGERDUTY_KEY"], egressDomains: ["events.pagerduty.com"], image: "node:20-bookworm" },
        });`,
      "bot/subagents/local/agent.ts": `
        import { defineAgent } from "@cursor/bdk";
        export default defineAgent({ description: "Answers from a local model.", instructions: "Be brief.", model: "compat/llama3.1" });`,
      "bot/mcp-connections/linear.ts": `
        import { defineConnection } from "@cursor/bdk/connections";
        export default defineConnection({ url: "https://mcp.linear.app/mcp", headers: { Authorization: "Bearer \${LINEAR_TOKEN}" } });`,
      "bot/host-connections/files.ts": `
        import { defineConnection } from "@cursor/bdk/connections";
        export default defineConnection({ command: "node", args: ["server.js"], env: { FILES_ROOT: "\${FILES_ROOT}", API_KEY: "\${FILES_API_KEY}" } });`,
      "bot/channels/slack.ts": `
        import { slackChannel } from "@cursor/bdk/channels/slack";
        export default slackChannel({ envPrefix: "OPS" });`,
      "bot/channels/github.ts": `
        import { githubChannel } from "@cursor/bdk/channels/github";
        export default githubChannel({ botName: "ops-bot" });`,
      "bot/tools/page.ts": `
        import { defineTool } from "@cursor/bdk/tools";
        const team = process.env.TEAM_NAME ?? "ops";
        export default defineTool({
          description: "Page the on-call engineer.",
          effect: "write",
          async execute() { return { team, token: Boolean(process.env["PAGER_TOKEN"]) }; },
        });`,
    });
    const manifest = await manifestOf(dir);

    expect(manifest.model).toEqual({ id: "anthropic/claude-sonnet-4-5", params: [] });
    expect(manifest.modelFallbacks).toEqual([{ id: "openai/gpt-5", params: [] }]);
    expect(manifest.hosting).toEqual({
      egressDomains: ["api.anthropic.com", "api.github.com", "api.openai.com", "events.pagerduty.com", "mcp.linear.app", "slack.com"],
      secretNames: [
        "ANTHROPIC_API_KEY",
        "BDK_OPENAI_API_KEY",
        "FILES_API_KEY",
        "FILES_ROOT",
        "GITHUB_TOKEN",
        "GITHUB_WEBHOOK_SECRET",
        "LINEAR_TOKEN",
        "OPENAI_API_KEY",
        "OPS_SLACK_BOT_TOKEN",
        "OPS_SLACK_SIGNING_SECRET",
        "PAGERDUTY_KEY",
        "PAGER_TOKEN",
      ],
      image: "node:20-bookworm",
    });
    expect(envNamed(manifest, "OPENAI_API_KEY")).toEqual({ name: "OPENAI_API_KEY", secret: true, required: false, usedBy: ["fallback model openai/gpt-5"] });
    expect(envNamed(manifest, "BDK_OPENAI_BASE_URL")).toEqual({
      name: "BDK_OPENAI_BASE_URL",
      secret: false,
      required: true,
      usedBy: ["subagent local model compat/llama3.1"],
    });
    expect(envNamed(manifest, "LINEAR_TOKEN")).toMatchObject({ secret: true, required: true, usedBy: ["connection linear"] });
    expect(envNamed(manifest, "OPS_SLACK_SIGNING_SECRET")).toMatchObject({ usedBy: ["channel slack"] });
    expect(envNamed(manifest, "TEAM_NAME")).toEqual({ name: "TEAM_NAME", secret: false, required: false, usedBy: ["bot/tools/page.ts"] });
    expect(envNamed(manifest, "PAGER_TOKEN")).toMatchObject({ secret: true, required: false, usedBy: ["bot/tools/page.ts"] });
    expect(manifest.channels).toEqual([
      { id: "github", pack: "github", routes: [{ method: "POST", path: "/v1/channels/github", description: "github webhook" }] },
      { id: "slack", pack: "slack", routes: [{ method: "POST", path: "/v1/channels/slack", description: "slack webhook" }] },
    ]);
  });

  it("finds environment reads in the syntax tree: destructuring, aliases, optional chains; not in comments or strings", async () => {
    const dir = tempProject({
      "package.json": '{ "name": "env-bot", "type": "module" }',
      "bot/instructions.md": "You read the environment.",
      "bot/tools/lookup.ts": `
        import { defineTool } from "@cursor/bdk/tools";
        import { env as nodeEnv } from "node:process";
        // process.env.COMMENTED_TOKEN is not read: it is in a comment
        /* neither is process.env["BLOCK_COMMENT_SECRET"] */
        const { DESTRUCTURED_KEY, RENAMED_SECRET: renamed, "QUOTED_TOKEN": quoted, ...rest } = process.env;
        const env = process.env;
        const alias = env;
        const { FROM_ALIAS_PASSWORD } = alias;
        const note = "process.env.IN_STRING_TOKEN is only text";
        export default defineTool({
          description: "Look something up.",
          async execute() {
            return {
              optional: process.env?.OPTIONAL_API_KEY,
              optionalIndex: process?.env?.["OPTIONAL_INDEX_TOKEN"],
              aliased: env.ALIASED_SECRET,
              aliasedIndex: alias["ALIAS_INDEX_KEY"],
              imported: nodeEnv.IMPORTED_TOKEN,
              cast: (process.env as Record<string, string>).CAST_SECRET,
              global: globalThis.process.env.GLOBAL_TOKEN,
              template: process.env[\`TEMPLATE_KEY\`],
              DESTRUCTURED_KEY, renamed, quoted, rest, FROM_ALIAS_PASSWORD, note,
            };
          },
        });`,
    });
    const result = await bdk(["manifest", "--dir", dir]);
    expect(result.code).toBe(0);
    const manifest = JSON.parse(result.stdout) as DeploymentManifest;
    const fromCode = manifest.env.filter((variable) => variable.usedBy.includes("bot/tools/lookup.ts")).map((variable) => variable.name);
    expect(fromCode.sort()).toEqual(
      [
        "ALIASED_SECRET",
        "ALIAS_INDEX_KEY",
        "CAST_SECRET",
        "DESTRUCTURED_KEY",
        "FROM_ALIAS_PASSWORD",
        "GLOBAL_TOKEN",
        "IMPORTED_TOKEN",
        "OPTIONAL_API_KEY",
        "OPTIONAL_INDEX_TOKEN",
        "QUOTED_TOKEN",
        "RENAMED_SECRET",
        "TEMPLATE_KEY",
      ].sort(),
    );
    expect(manifest.hosting.secretNames).not.toContain("COMMENTED_TOKEN");
    expect(manifest.hosting.secretNames).toContain("DESTRUCTURED_KEY");
  });

  it("the slack template lists the Slack variables beside the model key", async () => {
    const dir = path.join(tempProject({}), "slack-bot");
    expect((await bdk(["init", dir, "--template", "slack", "--no-install"])).code).toBe(0);
    const result = await bdk(["manifest", "--dir", dir]);
    expect(result.code).toBe(0);
    const manifest = JSON.parse(result.stdout) as DeploymentManifest;
    expect(manifest.name).toBe("slack-bot");
    expect(manifest.hosting).toEqual({ egressDomains: ["api.x.ai", "slack.com"], secretNames: ["SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "XAI_API_KEY"] });
    expect(manifest.channels).toEqual([{ id: "slack", pack: "slack", routes: [{ method: "POST", path: "/v1/channels/slack", description: "slack webhook" }] }]);
  });

  it("the webhook template lists WEBHOOK_TOKEN, read by its channel", async () => {
    const dir = path.join(tempProject({}), "hooks");
    expect((await bdk(["init", dir, "--template", "webhook", "--no-install"])).code).toBe(0);
    const manifest = await manifestOf(dir);
    expect(envNamed(manifest, "WEBHOOK_TOKEN")).toEqual({ name: "WEBHOOK_TOKEN", secret: true, required: false, usedBy: ["bot/channels/webhook.ts"] });
    expect(manifest.channels[0].routes.map((route) => `${route.method} ${route.path}`)).toEqual([
      "POST /v1/channels/webhook/alert",
      "GET /v1/channels/webhook/replies/:sessionId",
    ]);
  });

  it("needs nothing for the scripted model", async () => {
    const dir = tempProject({
      "bot/instructions.md": "x",
      "bot/agent.ts": 'import { defineAgent } from "@cursor/bdk";\nexport default defineAgent({ model: "scripted" });',
    });
    const manifest = await manifestOf(dir);
    expect(manifest.hosting).toEqual({ egressDomains: [], secretNames: [] });
    expect(manifest.env.map((variable) => variable.name)).toEqual(["BDK_MODEL"]);
  });
});

describe("bdk manifest failures and folders", () => {
  it("exits 1 with the errors on stderr and nothing on stdout", async () => {
    const dir = tempProject({ "bot/tools/x.ts": "export default 1;" });
    const result = await bdk(["manifest", "--dir", dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("the root agent has no instructions");
  });

  it("prints { agents } for a folder of projects, each with its slug", async () => {
    const dir = tempProject({ "one/bot/instructions.md": "x", "two/bot/instructions.md": "y" });
    const result = await bdk(["manifest", "--dir", dir]);
    expect(result.code).toBe(0);
    const { agents } = JSON.parse(result.stdout) as { agents: (DeploymentManifest & { slug: string })[] };
    expect(agents.map((agent) => [agent.slug, agent.name])).toEqual([
      ["one", "one"],
      ["two", "two"],
    ]);
  });
});
