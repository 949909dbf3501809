import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KIT_DIR, readNdjson, type RunningServer, startServer } from "./support/bdk-server.ts";

type Event = { type: string; index: number; sessionId: string; turnId?: string; data: Record<string, unknown> };

const PR_APPROVER = path.join(KIT_DIR, "bot-examples", "pr-approver");
const INSPECT = "Inspect https://github.com/acme/checkout/pull/42";

let server: RunningServer;
const api = (route: string, init?: RequestInit) => fetch(`${server.url}${route}`, init);
const post = (route: string, body: unknown, headers: Record<string, string> = {}) =>
  api(route, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

async function waitForIdle(sessionId: string, from = 0): Promise<Event[]> {
  const response = await api(`/v1/session/${sessionId}/stream?startIndex=${from}`);
  return readNdjson<Event>(response, (event) =>
    ["session.waiting", "session.completed", "session.failed"].includes(event.type),
  );
}

function expectEnvelope(body: Record<string, unknown>, error: string) {
  expect(body.ok).toBe(false);
  expect(body.error).toBe(error);
  expect(typeof body.message).toBe("string");
  expect(JSON.stringify(body)).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
}

beforeAll(async () => {
  server = await startServer({ dir: PR_APPROVER, env: { BDK_SCRIPTED_DELAY_MS: "150" } });
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

describe("sessions over HTTP (single mode)", () => {
  it("creates a session, streams its turn, and dumps the same events", async () => {
    const created = await post("/v1/session", { message: INSPECT, title: "PR 42 review" });
    expect(created.status).toBe(202);
    const body = (await created.json()) as Record<string, string>;
    expect(body).toMatchObject({ ok: true });
    expect(body.sessionId).toMatch(/^ses_/);
    expect(body.turnId).toMatch(/^turn_/);
    expect(body.continuationToken).toMatch(/^http:/);
    expect(body.playgroundUrl).toBe(`/playground?sessionId=${body.sessionId}`);

    const streamed = await waitForIdle(body.sessionId);
    expect(streamed.map((event) => event.index)).toEqual(streamed.map((_, i) => i));
    const tool = streamed.find((event) => event.type === "actions.requested");
    expect(JSON.stringify(tool?.data)).toContain("inspect_pr");

    const dump = await api(`/v1/session/${body.sessionId}/events`);
    expect(dump.headers.get("content-type")).toContain("application/x-ndjson");
    const dumped = await readNdjson<Event>(dump);
    expect(dumped).toEqual(streamed);

    const middle = await readNdjson<Event>(await api(`/v1/session/${body.sessionId}/stream?startIndex=5&follow=false`));
    expect(middle).toEqual(dumped.slice(5));
    const tail = await readNdjson<Event>(await api(`/v1/session/${body.sessionId}/events?startIndex=-2`));
    expect(tail).toEqual(dumped.slice(-2));

    const inspect = await api(`/v1/session/${body.sessionId}`);
    const session = ((await inspect.json()) as { session: Record<string, unknown> }).session;
    expect(session).toMatchObject({ id: body.sessionId, title: "PR 42 review", mode: "chat", status: "waiting" });
    expect(session.lastIndex).toBe(dumped.length - 1);
  });

  it("rotates the continuation token and refuses a stale one with 409", async () => {
    const created = (await (await post("/v1/session", { message: "hello" })).json()) as Record<string, string>;
    await waitForIdle(created.sessionId);
    const followUp = await post(`/v1/session/${created.sessionId}`, {
      message: "again",
      continuationToken: created.continuationToken,
    });
    expect(followUp.status).toBe(202);
    const rotated = (await followUp.json()) as Record<string, string>;
    expect(rotated.continuationToken).not.toBe(created.continuationToken);

    const stale = await post(`/v1/session/${created.sessionId}`, {
      message: "stale",
      continuationToken: created.continuationToken,
    });
    expect(stale.status).toBe(409);
    expectEnvelope(await stale.json(), "stale_token");
  });

  it("refuses a follow-up to a task session with 409", async () => {
    const created = (await (await post("/v1/session", { message: "hello", mode: "task" })).json()) as Record<
      string,
      string
    >;
    const events = await waitForIdle(created.sessionId);
    expect(events.at(-1)?.type).toBe("session.completed");
    const refused = await post(`/v1/session/${created.sessionId}`, {
      message: "more",
      continuationToken: created.continuationToken,
    });
    expect(refused.status).toBe(409);
    expectEnvelope(await refused.json(), "task_session");
  });

  it("stops a running turn (202) and reports idle sessions (200)", async () => {
    const created = (await (await post("/v1/session", { message: INSPECT })).json()) as Record<string, string>;
    const stopped = await post(`/v1/session/${created.sessionId}/stop`, {});
    expect(stopped.status).toBe(202);
    expect(await stopped.json()).toEqual({ ok: true, status: "stopping" });
    const events = await waitForIdle(created.sessionId);
    expect(events.find((event) => event.type === "turn.failed")?.data).toMatchObject({ status: "cancelled" });
    const idle = await post(`/v1/session/${created.sessionId}/stop`, {});
    expect(idle.status).toBe(200);
    expect(await idle.json()).toEqual({ ok: true, status: "idle" });
  });

  it("gives a follower that joins mid-turn every event exactly once", async () => {
    const created = (await (await post("/v1/session", { message: INSPECT })).json()) as Record<string, string>;
    await new Promise((resolve) => setTimeout(resolve, 30));
    const followed = await waitForIdle(created.sessionId);
    expect(followed.map((event) => event.index)).toEqual(followed.map((_, i) => i));
  });

  it("lists, searches and deletes sessions", async () => {
    const created = (await (await post("/v1/session", { message: "hello", title: "needle-title" })).json()) as Record<
      string,
      string
    >;
    await waitForIdle(created.sessionId);
    const byTitle = (await (await api("/v1/sessions?q=needle")).json()) as { sessions: { id: string }[] };
    expect(byTitle.sessions.map((session) => session.id)).toEqual([created.sessionId]);
    const byId = (await (await api(`/v1/sessions?q=${created.sessionId}`)).json()) as { sessions: { id: string }[] };
    expect(byId.sessions.map((session) => session.id)).toEqual([created.sessionId]);

    expect((await api(`/v1/session/${created.sessionId}`, { method: "DELETE" })).status).toBe(200);
    const gone = await api(`/v1/session/${created.sessionId}`);
    expect(gone.status).toBe(404);
    expectEnvelope(await gone.json(), "not_found");
    expect((await api(`/v1/session/${created.sessionId}/stream`)).status).toBe(404);
  });

  it("lists tools and calls one directly without a model turn", async () => {
    const tools = (await (await api("/v1/tools")).json()) as { tools: { name: string; inputSchema: unknown }[] };
    expect(tools.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["inspect_pr", "submit_review"]));
    const called = await post("/v1/tools/inspect_pr", { input: { prUrl: "https://github.com/acme/checkout/pull/42" } });
    expect(called.status).toBe(200);
    expect(await called.json()).toMatchObject({ ok: true, isError: false, result: expect.any(Object) });
    const missing = await post("/v1/tools/nope", { input: {} });
    expect(missing.status).toBe(404);
    expectEnvelope(await missing.json(), "not_found");
  });

  it("answers bad bodies with the error envelope and no stack trace", async () => {
    const malformed = await api("/v1/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    expectEnvelope(await malformed.json(), "invalid_request");

    const wrongField = await post("/v1/session", { message: 42 });
    expect(wrongField.status).toBe(400);
    const body = (await wrongField.json()) as Record<string, string>;
    expectEnvelope(body, "invalid_request");
    expect(body.message).toContain("message");

    const huge = await post("/v1/session", { message: "x".repeat(1024 * 1024 + 10) });
    expect(huge.status).toBe(413);
    expectEnvelope(await huge.json(), "payload_too_large");

    const badIndex = await api("/v1/session/ses_x/events?startIndex=abc");
    expect(badIndex.status).toBe(400);
    for (const raw of ["1e3", "01x", "99999999999999999999"]) {
      const loose = await api(`/v1/session/ses_x/events?startIndex=${raw}`);
      expect(loose.status).toBe(400);
      const body = (await loose.json()) as Record<string, unknown>;
      expectEnvelope(body, "invalid_request");
      expect(body.message).toContain(`startIndex must be an integer`);
    }
  });

  it("refuses proxied requests under localDevStrict", async () => {
    const proxied = await api("/v1/info", { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(proxied.status).toBe(403);
    expectEnvelope(await proxied.json(), "forbidden");
  });

  it("serves info and logs", async () => {
    const info = (await (await api("/v1/info")).json()) as Record<string, unknown>;
    expect(info.name).toBe("pr-approver");
    const logs = await api("/v1/logs");
    expect(logs.status).toBe(200);
    expect((await logs.json()) as Record<string, unknown>).toMatchObject({ ok: true, logs: expect.any(Array) });
  });
});

describe("workspace files over HTTP", () => {
  it("writes per-send files and refuses paths that escape the workspace with 400", async () => {
    const created = await post("/v1/session", { message: "hello", workspaceFiles: { "notes/a.txt": "hi" } });
    expect(created.status).toBe(202);
    const { sessionId, continuationToken } = (await created.json()) as Record<string, string>;
    const events = await waitForIdle(sessionId);
    expect(events.find((event) => event.type === "message.received")?.data).toMatchObject({
      workspaceFiles: ["notes/a.txt"],
    });
    for (const bad of ["../escape.txt", "/etc/passwd-copy", "a/../../b"]) {
      const refused = await post(`/v1/session/${sessionId}`, {
        message: "again",
        continuationToken,
        workspaceFiles: { [bad]: "x" },
      });
      expect(refused.status, bad).toBe(400);
      expectEnvelope(await refused.json(), "invalid_request");
      const fresh = await post("/v1/session", { message: "x", workspaceFiles: { [bad]: "x" } });
      expect(fresh.status, bad).toBe(400);
    }
  });
});
