/**
 * Signed Slack and GitHub webhooks to a running `bdk serve`, with a local
 * server standing in for the Slack and GitHub APIs.
 */
import { createHmac } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyProject, removeTempProjects, writeFiles } from "../server/load/testing/temp-project.ts";
import type { AnyBdkEvent } from "../server/protocol/events.ts";
import { openStore, type Store } from "../server/store/index.ts";
import { KIT_DIR, type RunningServer, startServer } from "./support/bdk-server.ts";
import { type PlatformApiServer, startPlatformApiServer } from "./support/platform-api-server.ts";

const SLACK_SECRET = "slack-signing-secret";
const STREAM_SECRET = "stream-signing-secret";
const GITHUB_SECRET = "github-webhook-secret";

let server: RunningServer;
let platform: PlatformApiServer;
let store: Store;

beforeAll(async () => {
  platform = await startPlatformApiServer();
  const dir = copyProject(path.join(KIT_DIR, "bot-examples", "pr-approver"));
  writeFiles(dir, {
    "bot/channels/slack.ts": 'import { slackChannel } from "bdk/channels/slack";\nexport default slackChannel({ reply: { mode: "post" } });\n',
    "bot/channels/slack-live.ts":
      'import { slackChannel } from "bdk/channels/slack";\nexport default slackChannel({ envPrefix: "LIVE", reply: { mode: "stream" }, continuation: "slack.dmthread/v2" });\n',
  });
  server = await startServer({
    dir,
    env: {
      SLACK_BOT_TOKEN: "xoxb-post",
      SLACK_SIGNING_SECRET: SLACK_SECRET,
      LIVE_SLACK_BOT_TOKEN: "xoxb-live",
      LIVE_SLACK_SIGNING_SECRET: STREAM_SECRET,
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

function events(sessionId: string): AnyBdkEvent[] {
  return store.events.list(sessionId) as AnyBdkEvent[];
}

async function idle(sessionId: string, turns: number): Promise<AnyBdkEvent[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const list = events(sessionId);
    const ended = list.filter((event) => event.type === "turn.completed" || event.type === "turn.failed").length;
    if (ended >= turns && list.at(-1)?.type === "session.waiting") return list;
    if (Date.now() > deadline) throw new Error(`session ${sessionId} did not settle: ${list.map((event) => event.type).join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const received = (sessionId: string) => events(sessionId).filter((event) => event.type === "message.received");

describe("Slack Events API", () => {
  const nowSeconds = () => String(Math.floor(Date.now() / 1000));
  const sign = (secret: string, timestamp: string, body: string) =>
    `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}`;

  async function slack(payload: unknown, options: { channel?: string; secret?: string; timestamp?: string; headers?: Record<string, string> } = {}) {
    const body = JSON.stringify(payload);
    const timestamp = options.timestamp ?? nowSeconds();
    return fetch(`${server.url}/v1/channels/${options.channel ?? "slack"}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-slack-request-timestamp": timestamp,
        "x-slack-signature": sign(options.secret ?? SLACK_SECRET, timestamp, body),
        ...options.headers,
      },
      body,
    });
  }

  const mention = (eventId: string, ts: string, text: string, threadTs?: string) => ({
    type: "event_callback",
    team_id: "T01",
    event_id: eventId,
    authorizations: [{ user_id: "UBOT" }],
    event: { type: "app_mention", user: "U42", channel: "C07", ts, thread_ts: threadTs, text: `<@UBOT> ${text}` },
  });

  it("answers the URL verification challenge", async () => {
    const response = await slack({ type: "url_verification", challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
  });

  it("a mention starts the thread's session; the answer is posted to the thread through the Web API", async () => {
    const response = await slack(mention("Ev100", "1700000100.000100", "what can you do?"));
    expect(response.status).toBe(200);
    const { sessionId } = (await response.json()) as { sessionId: string };
    const session = store.sessions.get(sessionId)!;
    expect(session).toMatchObject({ channel: "slack", mode: "chat", continuationToken: "slack:T01:C07:1700000100.000100" });
    expect(session.principal).toEqual({ type: "user", id: "slack:T01/U42" });

    const all = await idle(sessionId, 1);
    const answer = all.find((event) => event.type === "turn.completed")!.data as { result: string };
    const posted = await platform.waitFor((request) => request.path === "/api/chat.postMessage" && request.body.thread_ts === "1700000100.000100");
    expect(posted.headers.authorization).toBe("Bearer xoxb-post");
    expect(posted.body).toMatchObject({ channel: "C07", thread_ts: "1700000100.000100", text: answer.result });
    expect(received(sessionId)[0].data).toMatchObject({ message: "what can you do?" });
  });

  it("a reply in the thread continues the same session; a Slack retry of it never starts another turn", async () => {
    const first = (await (await slack(mention("Ev101", "1700000200.000100", "hello"))).json()) as { sessionId: string };
    await idle(first.sessionId, 1);
    const reply = mention("Ev102", "1700000205.000200", "and the inspect_pr tool?", "1700000200.000100");
    const second = (await (await slack(reply)).json()) as { sessionId: string };
    expect(second.sessionId).toBe(first.sessionId);
    await idle(first.sessionId, 2);

    const retried = await slack(reply, { headers: { "x-slack-retry-num": "1", "x-slack-retry-reason": "http_timeout" } });
    expect(retried.status).toBe(200);
    expect(await retried.json()).toEqual({ ok: true, duplicate: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received(first.sessionId)).toHaveLength(2);
    expect(events(first.sessionId).filter((event) => event.type === "turn.started")).toHaveLength(2);
  });

  it("refuses a bad signature and a stale timestamp without starting anything", async () => {
    const before = store.sessions.list({ limit: 500 }).sessions.length;
    const forged = await slack(mention("Ev200", "1700000300.000100", "hi"), { secret: "not-the-secret" });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: string }).error).toBe("unauthenticated");
    const stale = await slack(mention("Ev201", "1700000301.000100", "hi"), { timestamp: String(Math.floor(Date.now() / 1000) - 6 * 60) });
    expect(stale.status).toBe(401);
    expect(((await stale.json()) as { message: string }).message).toContain("five minutes");
    expect(store.sessions.list({ limit: 500 }).sessions.length).toBe(before);
  });

  it("verifies the signature over the raw bytes (a body that is not valid UTF-8 is taken as signed)", async () => {
    const json = Buffer.from(JSON.stringify(mention("Ev250", "1700000350.000100", "caf")));
    const at = json.indexOf("caf") + 3;
    const body = Buffer.concat([json.subarray(0, at), Buffer.from([0xff]), json.subarray(at)]);
    const timestamp = nowSeconds();
    const signature = `v0=${createHmac("sha256", SLACK_SECRET).update(Buffer.concat([Buffer.from(`v0:${timestamp}:`), body])).digest("hex")}`;
    const response = await fetch(`${server.url}/v1/channels/slack`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-slack-request-timestamp": timestamp, "x-slack-signature": signature },
      body: new Uint8Array(body),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, sessionId: expect.stringMatching(/^ses_/) });
  });

  it("stream mode posts the answer early and updates that message to the full text", async () => {
    const dm = {
      type: "event_callback",
      team_id: "T01",
      event_id: "Ev300",
      authorizations: [{ user_id: "UBOT" }],
      event: { type: "message", channel_type: "im", user: "U42", channel: "D09", ts: "1700000400.000100", text: "tell me about yourself" },
    };
    const response = await slack(dm, { channel: "slack-live", secret: STREAM_SECRET });
    const { sessionId } = (await response.json()) as { sessionId: string };
    expect(store.sessions.get(sessionId)?.continuationToken).toBe("slack:T01:D09:1700000400.000100");
    const all = await idle(sessionId, 1);
    const answer = (all.find((event) => event.type === "turn.completed")!.data as { result: string }).result;
    const deltas = all.filter((event) => event.type === "message.appended").length;

    const posted = await platform.waitFor((request) => request.path === "/api/chat.postMessage" && request.body.channel === "D09");
    expect(posted.headers.authorization).toBe("Bearer xoxb-live");
    expect(posted.body.thread_ts).toBe("1700000400.000100");
    // One message, posted once and then only updated, ending with the full answer (throttled: fewer calls than deltas).
    await platform.waitFor((request) => request.body.channel === "D09" && request.body.text === answer);
    const calls = platform.requests.filter((request) => request.body.channel === "D09");
    expect(calls.filter((request) => request.path === "/api/chat.postMessage")).toEqual([posted]);
    expect(calls.slice(1).every((request) => request.path === "/api/chat.update" && request.body.ts === posted.reply.ts)).toBe(true);
    expect(calls.at(-1)?.body.text).toBe(answer);
    expect(calls.length).toBeLessThan(deltas);
  });
});

describe("GitHub webhooks", () => {
  const repository = { name: "checkout", full_name: "acme/checkout", owner: { login: "acme" } };
  const pullRequest = { number: 42, title: "Fix typo in README", html_url: "https://github.com/acme/checkout/pull/42", body: "Small fix." };

  async function github(event: string, delivery: string, payload: unknown, secret = GITHUB_SECRET) {
    const body = JSON.stringify(payload);
    return fetch(`${server.url}/v1/channels/github`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": event,
        "x-github-delivery": delivery,
        "x-hub-signature-256": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
      },
      body,
    });
  }

  it("pull_request opened starts the PR conversation, which inspects the PR", async () => {
    const response = await github("pull_request", "d-1", { action: "opened", pull_request: pullRequest, repository, sender: { login: "alice", type: "User" } });
    expect(response.status).toBe(202);
    const body = (await response.json()) as { sessionId: string; continuationToken: string };
    expect(body.continuationToken).toBe("pr:acme/checkout#42");
    const session = store.sessions.get(body.sessionId)!;
    expect(session).toMatchObject({ channel: "github", principal: { type: "user", id: "github:alice" } });
    const all = await idle(body.sessionId, 1);
    expect(received(body.sessionId)[0].data).toMatchObject({ message: expect.stringContaining("Review https://github.com/acme/checkout/pull/42") });
    expect(all.find((event) => event.type === "action.result")?.data).toMatchObject({ name: "inspect_pr", isError: false });
  });

  it("synchronize continues the same session; a replayed delivery id and a bad signature do not", async () => {
    const sync = { action: "synchronize", pull_request: pullRequest, repository, sender: { login: "alice", type: "User" } };
    const first = (await (await github("pull_request", "d-2", sync)).json()) as { sessionId: string };
    const session = store.sessions.findByToken("github", "pr:acme/checkout#42")!;
    expect(first.sessionId).toBe(session.id);
    await idle(session.id, 2);

    const replayed = await github("pull_request", "d-2", sync);
    expect(await replayed.json()).toEqual({ ok: true, duplicate: true });
    const forged = await github("pull_request", "d-3", sync, "wrong-secret");
    expect(forged.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received(session.id)).toHaveLength(2);
  });

  it("ignores events the hooks decline: closed PRs, bots, comments not mentioning the bot", async () => {
    for (const [event, payload] of [
      ["pull_request", { action: "closed", pull_request: pullRequest, repository, sender: { login: "alice", type: "User" } }],
      ["pull_request", { action: "opened", pull_request: { ...pullRequest, number: 43 }, repository, sender: { login: "dependabot[bot]", type: "Bot" } }],
      ["issue_comment", { action: "created", issue: { number: 44, title: "x", pull_request: {} }, comment: { body: "looks good" }, repository, sender: { login: "bob", type: "User" } }],
    ] as const) {
      const response = await github(event, `ignored-${Math.random()}`, payload);
      expect(await response.json()).toEqual({ ok: true, ignored: true });
    }
    expect(store.sessions.findByToken("github", "pr:acme/checkout#43")).toBeUndefined();
    expect(store.sessions.findByToken("github", "pr:acme/checkout#44")).toBeUndefined();
  });

  it("submit_review posts the review through Octokit to the GitHub API when GITHUB_TOKEN is set", async () => {
    const response = await fetch(`${server.url}/v1/tools/submit_review`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ input: { prUrl: pullRequest.html_url, verdict: "approve", body: "Typo fix, CI green. Approved." } }),
    });
    expect(await response.json()).toMatchObject({ ok: true, isError: false, result: { submitted: true, reviewId: 101 } });
    const review = await platform.waitFor((request) => request.path === "/repos/acme/checkout/pulls/42/reviews");
    expect(review.method).toBe("POST");
    expect(review.headers.authorization).toBe("token ghp-test");
    expect(review.body).toEqual({ event: "APPROVE", body: "Typo fix, CI green. Approved." });
  });
});

describe("without --dev", () => {
  it("dev routes are 404, and GET /v1/info lists the channel webhooks", async () => {
    expect((await fetch(`${server.url}/v1/dev/schedules`)).status).toBe(404);
    expect((await fetch(`${server.url}/v1/dev/reminders/rem_x`, { method: "POST" })).status).toBe(404);
    const info = (await (await fetch(`${server.url}/v1/info`)).json()) as { channels: { id: string; pack?: string; routes: { method: string; path: string }[] }[] };
    expect(info.channels).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: "github", pack: "github", routes: [expect.objectContaining({ method: "POST", path: "/v1/channels/github" })] }),
        expect.objectContaining({ id: "slack", pack: "slack", routes: [expect.objectContaining({ method: "POST", path: "/v1/channels/slack" })] }),
      ]),
    );
  });
});
