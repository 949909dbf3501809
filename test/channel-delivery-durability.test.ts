/**
 * A webhook's delivery id is claimed only together with the message it
 * brought: when the message cannot be stored, the platform's retry of the
 * same delivery is handled as new (not dropped as a duplicate), so nothing
 * the platform sent is lost. The store failure is real (SQLite refuses the
 * write), on a running `bdk serve`.
 */
import { createHmac } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { copyProject, removeTempProjects, writeFiles } from "../server/load/testing/temp-project.ts";
import type { AnyBdkEvent } from "../server/protocol/events.ts";
import { openStore, type Store } from "../server/store/index.ts";
import { KIT_DIR, type RunningServer, startServer } from "./support/bdk-server.ts";
import { type PlatformApiServer, startPlatformApiServer } from "./support/platform-api-server.ts";
import { refuseInserts } from "./support/store-faults.ts";

const SLACK_SECRET = "slack-signing-secret";
const GITHUB_SECRET = "github-webhook-secret";

let server: RunningServer;
let platform: PlatformApiServer;
let store: Store;

beforeAll(async () => {
  platform = await startPlatformApiServer();
  const dir = copyProject(path.join(KIT_DIR, "bot-examples", "pr-approver"));
  writeFiles(dir, {
    "bot/channels/slack.ts": 'import { slackChannel } from "bdk/channels/slack";\nexport default slackChannel({ reply: { mode: "post" } });\n',
  });
  server = await startServer({
    dir,
    env: {
      SLACK_BOT_TOKEN: "xoxb-post",
      SLACK_SIGNING_SECRET: SLACK_SECRET,
      SLACK_API_URL: platform.slackApiUrl,
      GITHUB_WEBHOOK_SECRET: GITHUB_SECRET,
      GITHUB_TOKEN: "ghp-test",
      GITHUB_API_URL: platform.url,
    },
  });
  store = openStore(server.stateRoot);
}, 240_000);

afterAll(async () => {
  store?.close();
  await server?.stop();
  await platform?.close();
  removeTempProjects();
});

/** The messages the session's turns recorded, once its turn has ended (a turn records its message when it starts). */
async function received(sessionId: string): Promise<string[]> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const events = store.events.list(sessionId) as AnyBdkEvent[];
    if (events.at(-1)?.type === "session.waiting") {
      return events.flatMap((event) => (event.type === "message.received" ? [event.data.message] : []));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`session ${sessionId} did not settle`);
}

/** Sends the same delivery twice: first while the store refuses new turns, then as the platform's retry. */
async function deliverTwice(send: () => Promise<Response>) {
  const lift = refuseInserts(server.stateRoot, "turns");
  let failed: Response;
  try {
    failed = await send();
  } finally {
    lift();
  }
  const retried = await send();
  return { failed: { status: failed.status, body: (await failed.json()) as Record<string, unknown> }, retried: (await retried.json()) as Record<string, unknown> };
}

it("Slack: an event whose message could not be stored is handled again when Slack retries it", async () => {
  const payload = JSON.stringify({
    type: "event_callback",
    team_id: "T01",
    event_id: "Ev900",
    authorizations: [{ user_id: "UBOT" }],
    event: { type: "app_mention", user: "U42", channel: "C07", ts: "1700000900.000100", text: "<@UBOT> are you there?" },
  });
  const send = () => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    return fetch(`${server.url}/v1/channels/slack`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-slack-request-timestamp": timestamp,
        "x-slack-signature": `v0=${createHmac("sha256", SLACK_SECRET).update(`v0:${timestamp}:${payload}`).digest("hex")}`,
      },
      body: payload,
    });
  };
  const { failed, retried } = await deliverTwice(send);
  expect(failed).toMatchObject({ status: 500, body: { ok: false, error: "internal" } });
  expect(retried).toMatchObject({ ok: true, sessionId: expect.stringMatching(/^ses_/) });
  expect(await received(retried.sessionId as string)).toEqual(["are you there?"]);
}, 60_000);

it("GitHub: a delivery whose message could not be stored is handled again when GitHub redelivers it", async () => {
  const body = JSON.stringify({
    action: "opened",
    pull_request: { number: 77, title: "Fix typo", html_url: "https://github.com/acme/checkout/pull/77", body: "" },
    repository: { name: "checkout", full_name: "acme/checkout", owner: { login: "acme" } },
    sender: { login: "alice", type: "User" },
  });
  const send = () =>
    fetch(`${server.url}/v1/channels/github`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "pull_request",
        "x-github-delivery": "delivery-900",
        "x-hub-signature-256": `sha256=${createHmac("sha256", GITHUB_SECRET).update(body).digest("hex")}`,
      },
      body,
    });
  const { failed, retried } = await deliverTwice(send);
  expect(failed.status).toBe(500);
  expect(retried).toMatchObject({ ok: true, continuationToken: "pr:acme/checkout#77" });
  expect(await received(retried.sessionId as string)).toEqual([expect.stringContaining("Review https://github.com/acme/checkout/pull/77")]);
}, 60_000);
