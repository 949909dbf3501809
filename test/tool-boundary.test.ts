/**
 * The harness's boundary with a tool's code, on a real `bdk serve`: a tool
 * that ignores its abort signal no longer wedges its session, a tool's time
 * limit ends direct calls too, and a result that is not JSON becomes a tool
 * error naming where, instead of losing the turn's events.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { removeTempProjects, tempProject } from "../server/load/testing/temp-project.ts";
import { readNdjson, type RunningServer, startServer } from "./support/bdk-server.ts";

type Event = { type: string; index: number; data: Record<string, unknown> };
let server: RunningServer;

beforeAll(async () => {
  const dir = tempProject({
    "package.json": '{ "name": "tool-boundary", "type": "module" }',
    "bot/instructions.md": "You run the tool you are asked to run.",
    "bot/tools/wedge.ts":
      'import { defineTool } from "bdk";\nexport default defineTool({ description: "Waits for ever and ignores its abort signal.", execute: () => new Promise(() => {}) });\n',
    "bot/tools/slow_poke.ts":
      'import { defineTool } from "bdk";\nexport default defineTool({ description: "Never finishes; its time limit is short.", timeoutMs: 300, execute: () => new Promise(() => {}) });\n',
    "bot/tools/big_total.ts":
      'import { defineTool } from "bdk";\nexport default defineTool({ description: "Totals the orders as a BigInt.", execute: async () => ({ orders: 3, total: 10n ** 20n }) });\n',
    "bot/tools/self_ref.ts":
      'import { defineTool } from "bdk";\nexport default defineTool({ description: "Returns an object that contains itself.", execute: async () => { const node: Record<string, unknown> = { name: "root" }; node.children = [{ parent: node }]; return node; } });\n',
  });
  server = await startServer({ dir });
}, 120_000);

afterAll(async () => {
  await server?.stop("SIGKILL");
  removeTempProjects();
});

async function post(route: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${server.url}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const streamUntil = async (sessionId: string, from: number, until: (event: Event) => boolean) =>
  readNdjson<Event>(await fetch(`${server.url}/v1/session/${sessionId}/stream?startIndex=${from}`), until);

it("stops a turn whose tool ignores its abort signal, records the tool as still running, and takes the follow-up", async () => {
  const created = await post("/v1/session", { message: "wedge {}" });
  const sessionId = created.json.sessionId as string;
  await streamUntil(sessionId, 0, (event) => event.type === "actions.requested");
  expect((await post(`/v1/session/${sessionId}/stop`, {})).status).toBe(202);

  const events = await streamUntil(sessionId, 0, (event) => event.type === "session.waiting");
  const result = events.find((event) => event.type === "action.result")!;
  expect(result.data).toMatchObject({ name: "wedge", isError: true, stillRunning: true });
  expect(result.data.output).toContain("still running when the turn was stopped");
  expect(events.find((event) => event.type === "turn.failed")?.data).toMatchObject({ status: "cancelled", code: "cancelled" });

  const followUp = await post(`/v1/session/${sessionId}`, { message: "hello again", continuationToken: created.json.continuationToken });
  expect(followUp.status).toBe(202);
  const next = await streamUntil(sessionId, events.length, (event) => event.type === "session.waiting");
  expect(next.map((event) => event.type)).toContain("turn.completed");
}, 120_000);

it("ends a call at the tool's timeoutMs, in a turn (the model gets the error) and as a direct call", async () => {
  const created = await post("/v1/session", { message: "slow_poke {}" });
  const events = await streamUntil(created.json.sessionId as string, 0, (event) => event.type === "session.waiting");
  const result = events.find((event) => event.type === "action.result")!;
  expect(result.data).toMatchObject({ name: "slow_poke", isError: true, stillRunning: true });
  expect(result.data.output).toContain("time limit of 300 ms");
  expect(events.map((event) => event.type)).toContain("turn.completed");

  const direct = await post("/v1/tools/slow_poke", { input: {} });
  expect(direct.status).toBe(200);
  expect(direct.json).toMatchObject({ ok: true, isError: true, result: expect.stringContaining("time limit of 300 ms") });
}, 120_000);

it("turns a BigInt result into a tool error naming the field; the turn's events are kept and the turn ends", async () => {
  const created = await post("/v1/session", { message: "big_total {}" });
  const events = await streamUntil(created.json.sessionId as string, 0, (event) => event.type === "session.waiting");
  const result = events.find((event) => event.type === "action.result")!;
  expect(result.data).toMatchObject({
    name: "big_total",
    isError: true,
    output: "tool `big_total` returned a value that is not JSON: BigInt at result.total",
  });
  expect(events.map((event) => event.index)).toEqual(events.map((_, i) => i));
  expect(events.map((event) => event.type)).toContain("turn.completed");
}, 120_000);

it("answers a direct call of a tool returning a circular object with a tool error naming where", async () => {
  const direct = await post("/v1/tools/self_ref", { input: {} });
  expect(direct.status).toBe(200);
  expect(direct.json).toEqual({
    ok: true,
    isError: true,
    result: "tool `self_ref` returned a value that is not JSON: a circular reference at result.children[0].parent",
  });
}, 60_000);
