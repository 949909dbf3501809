/**
 * The `github-two-arg-hooks` field fixture: GitHub pack hooks written
 * `(ctx, pr)` / `(ctx, comment)` / `(ctx, issue)` as the published guide
 * writes them, beside a channel in the one-argument form, through validate,
 * info, call, run, and signed webhooks (HMAC over the raw bytes) to a real
 * `bdk serve`: replays, malformed payloads, large payloads, a throwing hook.
 */
import { createHmac } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyProject, removeTempProjects } from "../server/load/testing/temp-project.ts";
import type { AnyBdkEvent } from "../server/protocol/events.ts";
import { KIT_DIR } from "./support/bdk-server.ts";
import { servedChild } from "./support/served-project.ts";
import { runBdk } from "./support/run-process.ts";

const SECRET = "field-github-secret";
const env = { BDK_MODEL: "scripted", GITHUB_WEBHOOK_SECRET: SECRET };
const repository = { name: "checkout", full_name: "acme/checkout", owner: { login: "acme" } };
const alice = { login: "alice", type: "User" };

let dir: string;

beforeAll(() => {
  dir = copyProject(path.join(KIT_DIR, "test", "fixtures", "field", "github-two-arg-hooks"));
});

afterAll(removeTempProjects);

describe("github-two-arg-hooks from the CLI", () => {
  it("validate and info: both channels are GitHub webhooks", async () => {
    const validated = await runBdk(["validate", "--dir", dir], env);
    expect(validated.stdout.trim()).toBe("acme-reviewer: valid (0 errors, 0 warnings)");
    const info = JSON.parse((await runBdk(["info", "--dir", dir, "--json"], env)).stdout) as { channels: unknown[] };
    expect(info.channels).toEqual([
      { id: "github", pack: "github", routes: [expect.objectContaining({ method: "POST", path: "/v1/channels/github" })] },
      { id: "legacy", pack: "github", routes: [expect.objectContaining({ method: "POST", path: "/v1/channels/legacy" })] },
    ]);
  });

  it("call and run reach the review tool", async () => {
    const called = await runBdk(["call", "pr_checklist", "--dir", dir, "--input", '{"number": 42}'], env);
    expect(JSON.parse(called.stdout)).toEqual({ isError: false, result: { number: 42, checklist: ["tests pass", "changelog entry", "no secrets in the diff"] } });
    const ran = await runBdk(["run", "--dir", dir, "--message", 'pr_checklist {"number": 42}', "--json"], env);
    expect((JSON.parse(ran.stdout) as { toolCalls: { name: string }[] }).toolCalls.map((call) => call.name)).toEqual(["pr_checklist"]);
  });
});

describe("github-two-arg-hooks under bdk serve", () => {
  const served = servedChild(() => ({ dir, env }));
  let deliveries = 0;

  const sign = (body: Buffer) => `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`;

  async function deliver(
    event: string,
    payload: unknown,
    options: { channel?: string; delivery?: string | null; body?: Buffer } = {},
  ): Promise<{ status: number; body: Record<string, string> }> {
    const body = options.body ?? Buffer.from(JSON.stringify(payload));
    const delivery = options.delivery === undefined ? `field-${++deliveries}-${Date.now()}` : options.delivery;
    const response = await fetch(`${served.server.url}/v1/channels/${options.channel ?? "github"}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": event,
        "x-hub-signature-256": sign(body),
        ...(delivery === null ? {} : { "x-github-delivery": delivery }),
      },
      body: new Uint8Array(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  }

  const pullRequest = (number: number, fields: Record<string, unknown> = {}) => ({
    number,
    title: `Change ${number}`,
    draft: false,
    user: { login: "alice" },
    html_url: `https://github.com/acme/checkout/pull/${number}`,
    body: "Please review.",
    ...fields,
  });
  /** The messages the conversation received, once there are `count` of them. */
  async function messages(token: string, count: number, channel = "github"): Promise<string[]> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const session = served.store.sessions.findByToken(channel, token);
      const events = session ? (served.store.events.list(session.id) as AnyBdkEvent[]) : [];
      const received = events.flatMap((event) => (event.type === "message.received" ? [event.data.message] : []));
      if (received.length >= count) return received;
      if (Date.now() > deadline) throw new Error(`${token} received ${received.length} of ${count} messages`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("onPullRequest(ctx, pr): pr.action, pr.number, pr.title, pr.user and defaultGitHubAuth(ctx); context follows the description", async () => {
    const opened = await deliver("pull_request", { action: "opened", pull_request: pullRequest(42), repository, sender: alice });
    expect(opened).toMatchObject({ status: 202, body: { ok: true, continuationToken: "pr:acme/checkout#42" } });
    const session = served.store.sessions.get(opened.body.sessionId)!;
    expect(session.principal).toEqual({ type: "user", id: "github:alice" });
    expect(await messages("pr:acme/checkout#42", 1)).toEqual([
      'Pull request acme/checkout#42 was opened by @alice: "Change 42"\nhttps://github.com/acme/checkout/pull/42\n\nPlease review.\n\nReview PR #42 "Change 42" by @alice. Call pr_checklist first.',
    ]);
  });

  it("returning null ignores the event: a draft, an action the hook does not take", async () => {
    for (const payload of [
      { action: "opened", pull_request: pullRequest(43, { draft: true }), repository, sender: alice },
      { action: "labeled", pull_request: pullRequest(44), repository, sender: alice },
    ]) {
      expect(await deliver("pull_request", payload)).toEqual({ status: 200, body: { ok: true, ignored: true } });
    }
    expect(served.store.sessions.findByToken("github", "pr:acme/checkout#43")).toBeUndefined();
  });

  it("onComment(ctx, comment) continues the PR's conversation", async () => {
    const comment = { body: "@acme-reviewer please look again", user: alice, html_url: "https://github.com/acme/checkout/pull/42#c1" };
    const issue = { number: 42, title: "Change 42", pull_request: {} };
    const response = await deliver("issue_comment", { action: "created", issue, comment, repository, sender: alice });
    expect(response).toMatchObject({ status: 202, body: { continuationToken: "pr:acme/checkout#42" } });
    expect((await messages("pr:acme/checkout#42", 2))[1]).toContain("@alice commented on acme/checkout#42");
  });

  it("a captured payload replayed under a new delivery id, or without one, starts nothing", async () => {
    const body = Buffer.from(JSON.stringify({ action: "ready_for_review", pull_request: pullRequest(45), repository, sender: alice }));
    expect((await deliver("pull_request", undefined, { body })).status).toBe(202);
    expect(await deliver("pull_request", undefined, { body })).toEqual({ status: 200, body: { ok: true, duplicate: true } });
    const missing = await deliver("pull_request", undefined, { body, delivery: null });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ ok: false, error: "invalid_request", message: expect.stringContaining("X-GitHub-Delivery is missing") });
    // A later message of the same conversation lands right after the first: nothing came in between.
    const comment = { body: "@acme-reviewer ping", user: alice };
    await deliver("issue_comment", { action: "created", issue: { number: 45, title: "Change 45", pull_request: {} }, comment, repository, sender: alice });
    const received = await messages("pr:acme/checkout#45", 2);
    expect(received).toHaveLength(2);
    expect(received[1]).toContain("@acme-reviewer ping");
  });

  it("a payload without repository.owner is 400 naming the field, and its delivery id stays unclaimed", async () => {
    const broken = await deliver(
      "pull_request",
      { action: "opened", pull_request: pullRequest(46), repository: { name: "checkout" }, sender: alice },
      { delivery: "field-owner-1" },
    );
    expect(broken.status).toBe(400);
    expect(broken.body.message).toContain("repository.owner");
    const fixed = await deliver("pull_request", { action: "opened", pull_request: pullRequest(46), repository, sender: alice }, { delivery: "field-owner-1" });
    expect(fixed).toMatchObject({ status: 202, body: { continuationToken: "pr:acme/checkout#46" } });
  });

  it("the signature is checked over the raw bytes, and payloads up to 25 MB are taken", async () => {
    // 0xff is not UTF-8: a signature over decoded text would not match what GitHub signed.
    const head = Buffer.from(JSON.stringify({ action: "opened", pull_request: pullRequest(47, { body: "caf" }), repository, sender: alice }));
    const raw = Buffer.concat([head.subarray(0, head.indexOf('caf"') + 3), Buffer.from([0xff]), head.subarray(head.indexOf('caf"') + 3)]);
    expect((await deliver("pull_request", undefined, { body: raw })).status).toBe(202);

    const large = await deliver("pull_request", { action: "opened", pull_request: pullRequest(48, { body: "x".repeat(3 * 1024 * 1024) }), repository, sender: alice });
    expect(large.status).toBe(202);
    const tooLarge = await deliver("pull_request", { action: "opened", pull_request: pullRequest(49, { body: "x".repeat(26 * 1024 * 1024) }), repository, sender: alice });
    expect(tooLarge).toMatchObject({ status: 413, body: { ok: false, error: "payload_too_large" } });
  });

  it("a hook that throws gets a 500 with the envelope; the log names the hook and where it threw", async () => {
    const issue = { number: 7, title: "Checkout button missing", user: alice, html_url: "https://github.com/acme/checkout/issues/7" };
    const response = await deliver("issues", { action: "opened", issue, repository, sender: alice });
    expect(response).toEqual({
      status: 500,
      body: { ok: false, error: "internal", message: 'The onIssue hook of GitHub channel "github" failed; the agent\'s log has the details.' },
    });
    const logs = (await (await fetch(`${served.server.url}/v1/logs`)).json()) as { logs: { level: string; msg: string }[] };
    const line = logs.logs.find((entry) => entry.msg.startsWith("The onIssue hook"))!;
    expect(line.level).toBe("error");
    expect(line.msg).toMatch(/^The onIssue hook of GitHub channel "github" failed at bot\/channels\/github\.ts:\d+: .*map/);

    const labelled = await deliver("issues", { action: "opened", issue: { ...issue, labels: [{ name: "bug" }] }, repository, sender: alice });
    expect(labelled).toMatchObject({ status: 202, body: { continuationToken: "issue:acme/checkout#7" } });
  });

  it("the one-argument form still works", async () => {
    const response = await deliver("pull_request", { action: "opened", pull_request: pullRequest(50), repository, sender: alice }, { channel: "legacy" });
    expect(response.status).toBe(202);
    expect(served.store.sessions.findByToken("legacy", "pr:acme/checkout#50")!.principal).toEqual({ type: "user", id: "github:alice" });
    expect(await messages("pr:acme/checkout#50", 1, "legacy")).toEqual(["Legacy review of https://github.com/acme/checkout/pull/50."]);
  });
});
