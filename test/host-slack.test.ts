/**
 * `ctx.host.slack` posts as the bot through `@slack/web-api`, against a real
 * HTTP stand-in for the Slack Web API; without `SLACK_BOT_TOKEN` it names the
 * variable to set.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { removeTempProjects, tempProject } from "../server/load/testing/temp-project.ts";
import { serve, type ServeHandle } from "../web/serve.ts";
import { type PlatformApiServer, startPlatformApiServer } from "./support/platform-api-server.ts";

let platform: PlatformApiServer;
const handles: ServeHandle[] = [];
let project: string;

beforeAll(async () => {
  platform = await startPlatformApiServer();
  project = tempProject({
    "bot/instructions.md": "You announce deploys.",
    "bot/tools/announce.ts": `import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
export default defineTool({
  description: "Announce a deploy in Slack.",
  inputSchema: z.object({ channel: z.string(), text: z.string() }),
  async execute(input, ctx) {
    return ctx.host.slack.postMessage(input);
  },
});`,
  });
}, 60_000);

afterAll(async () => {
  await Promise.all(handles.map((handle) => handle.close()));
  await platform?.close();
  removeTempProjects();
});

async function start(env: Record<string, string>): Promise<ServeHandle> {
  const handle = await serve(project, { port: 0, env: { BDK_MODEL: "scripted", ...env } });
  handles.push(handle);
  return handle;
}

it("posts as the bot with SLACK_BOT_TOKEN and returns the message ts", async () => {
  const handle = await start({ SLACK_BOT_TOKEN: "xoxb-host", SLACK_API_URL: platform.slackApiUrl });
  const called = await handle.callTool("announce", { channel: "C0DEPLOYS", text: "checkout v42 is live" });
  expect(called).toEqual({ isError: false, result: { ts: expect.stringMatching(/^\d+\.\d+$/) } });
  const posted = await platform.waitFor((request) => request.path === "/api/chat.postMessage" && request.body.channel === "C0DEPLOYS");
  expect(posted.body.text).toBe("checkout v42 is live");
  expect(posted.headers.authorization).toBe("Bearer xoxb-host");
  await handle.close();
});

it("without SLACK_BOT_TOKEN the call fails naming the variable", async () => {
  const handle = await start({ SLACK_API_URL: platform.slackApiUrl });
  const called = await handle.callTool("announce", { channel: "C0DEPLOYS", text: "nope" });
  expect(called.isError).toBe(true);
  expect(String(called.result)).toContain("SLACK_BOT_TOKEN");
});
