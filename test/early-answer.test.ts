/**
 * The front answers `/health`, `/v1/info` and the session streams before
 * (and without) the web app (Next.js); other requests wait for it and then succeed, and a web app
 * that fails to boot is an error envelope naming that, never a hang.
 * The boot is held back by a gate around the real Next.js boot.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import { requireAuth, serverPolicies } from "../server/auth/policies.ts";
import { openAgent, type OpenedAgent } from "../server/host/open-agent.ts";
import { HttpHost, type HttpHostOptions } from "../server/http/http-host.ts";
import type { AgentRouteName } from "../server/http/routes.ts";
import { copyProject, removeTempProjects } from "../server/load/testing/temp-project.ts";
import { bootNextApp, startWebServer, type WebServer } from "../web/start-web-server.ts";
import { KIT_DIR } from "./support/bdk-server.ts";

let opened: OpenedAgent | undefined;
let web: WebServer | undefined;

afterEach(async () => {
  await web?.close();
  await opened?.close();
  web = opened = undefined;
  removeTempProjects();
});

async function start(
  bootWebApp: Parameters<typeof startWebServer>[0]["bootWebApp"],
  Host: new (options: HttpHostOptions) => HttpHost = HttpHost,
): Promise<{ web: WebServer; lines: string[]; opened: OpenedAgent }> {
  const dir = copyProject(path.join(KIT_DIR, "bot-examples", "pr-approver"));
  opened = await openAgent(dir, { stateRoot: mkdtempSync(path.join(tmpdir(), "bdk-early-")), env: { BDK_MODEL: "scripted" } });
  const httpHost = new Host({
    agents: [{ slug: "pr-approver", opened }],
    mode: "single",
    dev: false,
    policies: serverPolicies({ bearerTokens: [] }),
    playground: true,
  });
  const lines: string[] = [];
  web = await startWebServer({ host: "127.0.0.1", port: 0, httpHost, log: (line) => lines.push(line), bootWebApp });
  return { web, lines, opened };
}

it("answers /health and /v1/info while Next.js boots, with the same info body after; the playground waits and gets 200", async () => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let booted = false;
  const { web } = await start(async (options) => {
    await gate;
    const app = await bootNextApp(options);
    booted = true;
    return app;
  });

  expect((await fetch(`${web.url}/health`)).status).toBe(200);
  const early = await fetch(`${web.url}/v1/info`);
  expect(early.status).toBe(200);
  const earlyBody = await early.json();
  expect(earlyBody).toMatchObject({ name: "pr-approver" });
  expect(booted).toBe(false);

  let playgroundStatus: number | undefined;
  const playground = fetch(`${web.url}/playground`).then(async (response) => {
    playgroundStatus = response.status;
    return response.text();
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(playgroundStatus).toBeUndefined();

  open();
  await web.ready;
  expect(await playground).toContain("<html");
  expect(playgroundStatus).toBe(200);
  const late = await fetch(`${web.url}/v1/info/`);
  expect(late.status).toBe(200);
  expect(await late.json()).toEqual(earlyBody);
  // Another /v1 route, served by Next.js now that it is up.
  expect((await fetch(`${web.url}/v1/sessions`)).status).toBe(200);
}, 240_000);

it("a web app that fails to boot is logged and answered as an envelope; /v1/info still answers", async () => {
  const { web, lines } = await start(async () => {
    throw new Error("next build failed: out of disk");
  });
  await expect(web.ready).rejects.toThrow("out of disk");
  expect(lines).toContain("The web app (Next.js) failed to start: next build failed: out of disk");

  const sessions = await fetch(`${web.url}/v1/sessions`);
  expect(sessions.status).toBe(500);
  expect(await sessions.json()).toEqual({
    ok: false,
    error: "internal",
    message: "The web app failed to start: next build failed: out of disk (/health and /v1/info still answer; see the server log).",
  });
  expect((await fetch(`${web.url}/v1/info`)).status).toBe(200);
  const posted = await fetch(`${web.url}/v1/info`, { method: "POST" });
  expect(posted.status).toBe(405);
});

it("never boots the web app of a server closed before its warm-up", async () => {
  let boots = 0;
  const { web: closed } = await start(async () => {
    boots++;
    throw new Error("a closed server must not boot");
  });
  await closed.close();
  web = undefined;
  // Past the warm-up delay (1 s): the cleared timer never fires, so nothing boots and nothing is thrown from a timer.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(boots).toBe(0);
});

type Line = { type: string; index: number };

/** Reads a stream's NDJSON lines until `until` returns true (or the stream ends), then closes it. */
async function readLines(response: Response, until: (line: Line) => boolean = () => false): Promise<Line[]> {
  const lines: Line[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return lines;
    buffered += value;
    const complete = buffered.split("\n");
    buffered = complete.pop()!;
    for (const text of complete.filter(Boolean)) {
      lines.push(JSON.parse(text) as Line);
      if (until(lines.at(-1)!)) {
        await reader.cancel();
        return lines;
      }
    }
  }
}

it("creates and streams a session from the front with no web app: replay, then live events, each index once", async () => {
  const { web, opened } = await start(async () => {
    throw new Error("no web app in this test");
  });
  await expect(web.ready).rejects.toThrow("no web app");
  const created = await fetch(`${web.url}/v1/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "hello" }) });
  expect(created.status).toBe(202);
  const first = (await created.json()) as { sessionId: string; continuationToken: string };
  await readLines(await fetch(`${web.url}/v1/session/${first.sessionId}/stream`), (line) => line.type === "session.waiting");
  const stored = await readLines(await fetch(`${web.url}/v1/session/${first.sessionId}/stream?startIndex=0&follow=false`));
  expect(stored.at(-1)?.type).toBe("session.waiting");
  expect(stored.map((line) => line.index)).toEqual(stored.map((_, index) => index));

  const following = await fetch(`${web.url}/v1/session/${first.sessionId}/stream?startIndex=1`);
  expect(following.status).toBe(200);
  expect(following.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
  const read = readLines(following, (line) => line.index > stored.length && line.type === "session.waiting");
  // Follow-ups are a Next.js route: sent through the engine here.
  const { principal } = requireAuth(serverPolicies({ bearerTokens: [] }), { peer: "127.0.0.1", forwarded: false, authorization: null });
  opened.runtime.followUp(first.sessionId, { message: "again", principal, continuationToken: first.continuationToken });
  const lines = await read;
  expect(lines.slice(0, stored.length - 1)).toEqual(stored.slice(1));
  expect(lines.map((line) => line.index)).toEqual(lines.map((_, index) => index + 1));
  expect(lines.some((line) => line.index >= stored.length && line.type === "turn.completed")).toBe(true);

  const unknown = await fetch(`${web.url}/v1/session/ses_nope/stream`);
  expect(unknown.status).toBe(404);
  expect(await unknown.json()).toMatchObject({ ok: false, error: "not_found" });
  const posted = await fetch(`${web.url}/v1/session/${first.sessionId}/stream`, { method: "POST" });
  expect(posted.status).toBe(405);
  expect(await posted.json()).toMatchObject({ ok: false, error: "method_not_allowed" });
  const invalid = await fetch(`${web.url}/v1/session`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
  expect(invalid.status).toBe(400);
  expect(await invalid.json()).toMatchObject({ ok: false, error: "invalid_request" });
}, 60_000);

it("stops a follow whose client goes away, before its answer is ready or while it streams", async () => {
  let entered!: () => void;
  let release!: () => void;
  let reached = new Promise<void>((resolve) => (entered = resolve));
  let gate = Promise.resolve();
  const cancelled: string[] = [];
  /** Holds the stream's answer at `gate`, and records each cancel of its body. */
  class WatchedHost extends HttpHost {
    override async handleAgentRoute(name: AgentRouteName, request: Request, params: Record<string, string>): Promise<Response> {
      if (name !== "stream") return super.handleAgentRoute(name, request, params);
      entered();
      await gate;
      const answer = await super.handleAgentRoute(name, request, params);
      const body = answer.body!;
      const reader = body.getReader();
      const label = new URL(request.url).searchParams.get("label") ?? "";
      const watched = new ReadableStream<Uint8Array>({
        pull: async (controller) => {
          const { value, done } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
        cancel: async (reason) => {
          cancelled.push(label);
          await reader.cancel(reason);
        },
      });
      return new Response(watched, { status: answer.status, headers: answer.headers });
    }
  }
  const { web } = await start(async () => {
    throw new Error("no web app in this test");
  }, WatchedHost);
  const created = (await (
    await fetch(`${web.url}/v1/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "hello" }) })
  ).json()) as { sessionId: string };

  const streaming = new AbortController();
  const response = await fetch(`${web.url}/v1/session/${created.sessionId}/stream?label=streaming`, { signal: streaming.signal });
  await response.body!.getReader().read();
  streaming.abort();
  await vi.waitFor(() => expect(cancelled).toContain("streaming"));

  reached = new Promise<void>((resolve) => (entered = resolve));
  gate = new Promise<void>((resolve) => (release = resolve));
  const early = new AbortController();
  const never = fetch(`${web.url}/v1/session/${created.sessionId}/stream?label=early`, { signal: early.signal }).catch(() => undefined);
  await reached;
  early.abort();
  await never;
  // Let the socket's close reach the server before the answer is.
  await new Promise((resolve) => setTimeout(resolve, 100));
  release();
  await vi.waitFor(() => expect(cancelled).toContain("early"));
}, 60_000);
