import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestFacts } from "../auth/policies.ts";
import { openAgent, type OpenedAgent } from "../host/open-agent.ts";
import { handleChannelRequest } from "../http/channel-routes.ts";
import { errorResponse } from "../http/respond.ts";
import { removeTempProjects, tempProject } from "../load/testing/temp-project.ts";

const project = tempProject({
  "package.json": '{ "name": "packs", "type": "module" }',
  "bot/instructions.md": "You review PRs.",
  "bot/channels/github.ts":
    'import { githubChannel, defaultGitHubAuth } from "@cursor/bdk/channels/github";\nexport default githubChannel({ botName: "reviewer", onIssue: defaultGitHubAuth });\n',
  "bot/channels/github-bad.ts":
    'import { githubChannel } from "@cursor/bdk/channels/github";\nexport default githubChannel({ botName: "reviewer", onIssue: () => ({ auth: { type: "robot", id: "x" } }) });\n',
  "bot/channels/slack.ts": 'import { slackChannel } from "@cursor/bdk/channels/slack";\nexport default slackChannel({ envPrefix: "OPS" });\n',
});

const issue = JSON.stringify({
  action: "opened",
  issue: { number: 5, title: "Crash on start", html_url: "https://github.com/acme/app/issues/5", body: "It crashes." },
  repository: { name: "app", full_name: "acme/app", owner: { login: "acme" } },
  sender: { login: "carol", type: "User" },
});

let dev: OpenedAgent;
let prod: OpenedAgent;
beforeAll(async () => {
  dev = await openAgent(project, { env: { BDK_MODEL: "scripted" }, dev: true, stateRoot: `${project}/.state-dev` });
  prod = await openAgent(project, { env: { BDK_MODEL: "scripted" }, stateRoot: `${project}/.state-prod` });
});
afterAll(async () => {
  await dev.close();
  await prod.close();
  removeTempProjects();
});

async function post(opened: OpenedAgent, channel: string, body: string, facts: Partial<RequestFacts>, headers: Record<string, string> = {}) {
  const request = new Request(`http://127.0.0.1/v1/channels/${channel}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  try {
    return await handleChannelRequest({
      request,
      path: channel,
      opened,
      policies: [{ kind: "localDevStrict" }],
      facts: { peer: "127.0.0.1", forwarded: false, authorization: null, ...facts },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

describe("pack webhooks without a configured secret", () => {
  it("under --dev, an unsigned loopback post is accepted (an issue conversation starts)", async () => {
    const response = await post(dev, "github", issue, {}, { "x-github-event": "issues", "x-github-delivery": "d-1" });
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ continuationToken: "issue:acme/app#5" });
    const session = (await dev.store.sessions.findByToken("github", "issue:acme/app#5"))!;
    expect(session.principal).toEqual({ type: "user", id: "github:carol" });
    await dev.runtime.idle(session.id);
  });

  it("under --dev, a remote or proxied unsigned post is refused", async () => {
    for (const facts of [{ peer: "10.1.2.3" }, { forwarded: true }]) {
      const response = await post(dev, "github", issue, facts, { "x-github-event": "issues", "x-github-delivery": `d-${Math.random()}` });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { message: string }).message).toContain("GITHUB_WEBHOOK_SECRET");
    }
  });

  it("without --dev, even loopback needs the secret; the Slack pack names its prefixed variable", async () => {
    const github = await post(prod, "github", issue, {}, { "x-github-event": "issues", "x-github-delivery": "d-9" });
    expect(github.status).toBe(401);
    const slack = await post(prod, "slack", JSON.stringify({ type: "url_verification", challenge: "c" }), {});
    expect(slack.status).toBe(401);
    expect(((await slack.json()) as { message: string }).message).toContain("OPS_SLACK_SIGNING_SECRET");
  });

  it("a pack takes POST at its base path only", async () => {
    const response = await post(dev, "github/extra", issue, {});
    expect(response.status).toBe(404);
  });
});

describe("a hook result the pack cannot use", () => {
  it("is a 500 with the envelope, and the log names the hook and the field", async () => {
    const response = await post(dev, "github-bad", issue, {}, { "x-github-event": "issues", "x-github-delivery": "d-bad-1" });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      ok: false,
      error: "internal",
      message: 'The onIssue hook of GitHub channel "github-bad" failed; the agent\'s log has the details.',
    });
    const logged = (await dev.store.logs.list({ limit: 50 })).find((row) => row.msg.startsWith("The onIssue hook"))!;
    expect(logged.msg).toContain("onIssue's result: auth.type: Invalid option");
    expect((await dev.store.sessions.findByToken("github-bad", "issue:acme/app#5"))).toBeUndefined();
  });
});
