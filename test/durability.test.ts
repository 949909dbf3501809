/**
 * Nothing acknowledged is lost: a real `bdk serve` killed with -9 (or
 * stopped with SIGTERM) at the worst moment, restarted on the same state
 * root, and checked through the HTTP API and the state database.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { historyFromEvents } from "../server/harness/history.ts";
import { removeTempProjects, tempProject } from "../server/load/testing/temp-project.ts";
import type { AnyBdkEvent } from "../server/protocol/events.ts";
import { readNdjson, type RunningServer, startServer } from "./support/bdk-server.ts";

let dir: string;
const servers: RunningServer[] = [];

beforeAll(() => {
  dir = tempProject({
    "package.json": '{ "name": "durable-bot", "type": "module" }',
    "bot/instructions.md": "You help with reviews.",
    "bot/tools/hold.ts": `import { defineTool } from "bdk/tools";
import { z } from "zod";
export default defineTool({ description: "Holds the line.", inputSchema: z.object({}), execute: () => ({ held: true }) });
`,
    // Committing an answer about hold never settles (and ignores stops): that turn cannot end, so the next one waits.
    "bot/result.ts": `import { defineResult } from "bdk/result";
export default defineResult({ commit: (text) => (text.includes("held") ? new Promise(() => {}) : undefined) });
`,
    "bot/tools/submit_review.ts": `import { defineTool } from "bdk/tools";
import { z } from "zod";
export default defineTool({
  description: "Submit a review.",
  effect: "write",
  needsApproval: true,
  inputSchema: z.object({ prUrl: z.string() }),
  execute: ({ prUrl }) => ({ submitted: true, prUrl }),
});
`,
  });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop("SIGKILL")));
  removeTempProjects();
});

async function serve(options: { stateRoot?: string; port?: number; slow?: boolean } = {}): Promise<RunningServer> {
  const server = await startServer({
    dir,
    stateRoot: options.stateRoot,
    port: options.port,
    env: options.slow ? { BDK_SCRIPTED_DELAY_MS: "4000" } : {},
  });
  servers.push(server);
  return server;
}

/** The same server restarted on its state root and port. */
const restart = (server: RunningServer) => serve({ stateRoot: server.stateRoot, port: server.port });

async function post(server: RunningServer, route: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${route}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

const events = async (server: RunningServer, sessionId: string) =>
  readNdjson<AnyBdkEvent>(await fetch(`${server.url}/v1/session/${sessionId}/events`));

/** Follows the session from `startIndex` until an event of `type`. */
const until = async (server: RunningServer, sessionId: string, type: string, startIndex = 0) =>
  readNdjson<AnyBdkEvent>(await fetch(`${server.url}/v1/session/${sessionId}/stream?startIndex=${startIndex}`), (event) => event.type === type);

const received = (all: AnyBdkEvent[]) =>
  all.flatMap((event) => (event.type === "message.received" ? [event.data.message] : []));

/** The user messages the model would see next, rebuilt from the stored events. */
const userMessages = (all: AnyBdkEvent[]) =>
  historyFromEvents(all).flatMap((message) => (message.role === "user" ? [String(message.content)] : []));

it("keeps coalesced follow-ups acknowledged while a turn ran, after kill -9", async () => {
  const first = await serve({ slow: true });
  const created = (await post(first, "/v1/session", { message: "hello" })).body;
  await until(first, created.sessionId, "step.started");
  const one = await post(first, `/v1/session/${created.sessionId}`, {
    message: "note one for later",
    continuationToken: created.continuationToken,
    admission: "coalesce",
  });
  const two = await post(first, `/v1/session/${created.sessionId}`, {
    message: "note two for later",
    continuationToken: one.body.continuationToken,
    admission: "coalesce",
  });
  expect([one.status, two.status]).toEqual([202, 202]);
  // Both join the one turn that waits for the running one.
  expect(two.body.turnId).toBe(one.body.turnId);
  await first.stop("SIGKILL");

  const second = await restart(first);
  const all = await events(second, created.sessionId);
  expect(all.map((event) => event.index)).toEqual(all.map((_, i) => i));
  expect(received(all)).toEqual(["hello", "note one for later\n\nnote two for later"]);
  const waiting = all.filter((event) => event.turnId === one.body.turnId).map((event) => [event.type, event.type === "turn.failed" ? event.data.status : undefined]);
  expect(waiting).toEqual([
    ["message.received", undefined],
    ["turn.failed", "interrupted"],
  ]);
  expect(userMessages(all)).toEqual(["hello", "note one for later\n\nnote two for later"]);

  const next = await post(second, `/v1/session/${created.sessionId}`, { message: "are you back?", continuationToken: two.body.continuationToken });
  expect(next.status).toBe(202);
  const after = await until(second, created.sessionId, "session.waiting", all.length);
  expect(after.filter((event) => event.type === "turn.completed")).toHaveLength(1);
  expect(userMessages(await events(second, created.sessionId))).toEqual(["hello", "note one for later\n\nnote two for later", "are you back?"]);
}, 240_000);

it("keeps a message whose turn never started (the previous one could not end), after kill -9", async () => {
  const first = await serve();
  const created = (await post(first, "/v1/session", { message: "hold {}" })).body;
  await until(first, created.sessionId, "message.completed");
  const preempting = await post(first, `/v1/session/${created.sessionId}`, {
    message: "what now?",
    continuationToken: created.continuationToken,
    workspaceFiles: { "notes/plan.md": "the plan" },
  });
  expect(preempting.status).toBe(202);
  await first.stop("SIGKILL");

  const second = await restart(first);
  const all = await events(second, created.sessionId);
  expect(all.map((event) => event.index)).toEqual(all.map((_, i) => i));
  const ofTurn = all.filter((event) => event.turnId === preempting.body.turnId);
  expect(ofTurn.map((event) => event.type)).toEqual(["message.received", "turn.failed"]);
  expect(ofTurn[0].data).toEqual({ message: "what now?", workspaceFiles: ["notes/plan.md"] });
  expect(ofTurn[1].data).toMatchObject({ status: "interrupted", code: "interrupted" });
  expect(userMessages(all)).toEqual(["hold {}", "what now?"]);
  // The files the message brought are in the workspace before the next turn runs.
  const token = (await (await fetch(`${second.url}/v1/session/${created.sessionId}/token`)).json()) as { continuationToken: string };
  await post(second, `/v1/session/${created.sessionId}`, { message: "go on", continuationToken: token.continuationToken });
  await until(second, created.sessionId, "session.waiting", all.length);
  expect(existsSync(path.join(second.stateRoot, "workspaces", created.sessionId, "notes", "plan.md"))).toBe(true);
}, 240_000);

it("leaves a pending approval pending across a graceful stop (SIGTERM), as across kill -9", async () => {
  const first = await serve();
  const created = (await post(first, "/v1/session", { message: "submit_review https://github.com/acme/checkout/pull/7" })).body;
  const parked = (await until(first, created.sessionId, "action.approval_requested")).at(-1)!;
  const { approvalId } = parked.data as { approvalId: string };
  await first.stop("SIGTERM");

  const second = await restart(first);
  const inbox = (await (await fetch(`${second.url}/v1/approvals`)).json()) as { approvals: { approvalId: string }[] };
  expect(inbox.approvals.map((approval) => approval.approvalId)).toEqual([approvalId]);
  const decided = await post(second, `/v1/session/${created.sessionId}/approvals/${approvalId}`, { approved: true });
  expect(decided.body).toMatchObject({ status: "approved" });
  const after = await until(second, created.sessionId, "session.waiting");
  expect(after.find((event) => event.type === "action.result")?.data).toMatchObject({ isError: false, output: { submitted: true } });
  expect(after.filter((event) => event.type === "turn.failed")).toEqual([]);
}, 240_000);

it("answers a retried follow-up (old token, same Idempotency-Key) with its first answer, even after kill -9", async () => {
  const first = await serve();
  const created = (await post(first, "/v1/session", { message: "hello" })).body;
  await until(first, created.sessionId, "session.waiting");
  const message = { message: "second message", continuationToken: created.continuationToken };
  const key = { "idempotency-key": "9b2f6a3e-1c1d-4c8e-b0a4-5d6f7a8b9c0d" };
  const before = await events(first, created.sessionId);
  const answered = await post(first, `/v1/session/${created.sessionId}`, message, key);
  expect(answered.status).toBe(202);
  await until(first, created.sessionId, "session.waiting", before.length);
  await first.stop("SIGKILL");

  const second = await restart(first);
  // The client never saw that answer: it retries with the token it had and the same key.
  const retried = await post(second, `/v1/session/${created.sessionId}`, message, key);
  expect(retried).toEqual(answered);
  const token = (await (await fetch(`${second.url}/v1/session/${created.sessionId}/token`)).json()) as Record<string, string>;
  expect(token).toEqual({ ok: true, sessionId: created.sessionId, continuationToken: answered.body.continuationToken });
  // Without the key, the old token is stale; the same key with another message is refused.
  expect((await post(second, `/v1/session/${created.sessionId}`, message)).status).toBe(409);
  const reused = await post(second, `/v1/session/${created.sessionId}`, { ...message, message: "something else" }, key);
  expect(reused).toMatchObject({ status: 400, body: { error: "invalid_request" } });
  expect(received(await events(second, created.sessionId))).toEqual(["hello", "second message"]);
}, 240_000);

it("ends the streams of a deleted session with a last line and removes its workspace", async () => {
  const server = await serve({ slow: true });
  const created = (await post(server, "/v1/session", { message: "hello", workspaceFiles: { "a.txt": "a" } })).body;
  const workspace = path.join(server.stateRoot, "workspaces", created.sessionId);
  const stream = await fetch(`${server.url}/v1/session/${created.sessionId}/stream`);
  const following = readNdjson<Record<string, unknown>>(stream);
  await until(server, created.sessionId, "step.started");
  expect(existsSync(path.join(workspace, "a.txt"))).toBe(true);

  expect((await fetch(`${server.url}/v1/session/${created.sessionId}`, { method: "DELETE" })).status).toBe(200);
  // The stream ends by itself (readNdjson returns at its end), its last line saying why.
  const lines = await following;
  expect(lines.at(-1)).toMatchObject({ type: "session.deleted", sessionId: created.sessionId });
  expect(lines.slice(0, -1).every((line) => typeof line.index === "number")).toBe(true);
  for (let attempt = 0; existsSync(workspace) && attempt < 100; attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(existsSync(workspace)).toBe(false);
}, 240_000);
