/**
 * The log tells you why (pr-approver, scripted model, a real `bdk serve`): a
 * tool call that came back as an error and a 4xx answer are logged with the
 * session they were about, and GET /v1/logs carries that id for the playground
 * to link to.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KIT_DIR, readNdjson, type RunningServer, startServer } from "./support/bdk-server.ts";

type Line = { at: string; level: string; msg: string; sessionId?: string; [key: string]: unknown };

let server: RunningServer;
const api = (route: string, init?: RequestInit) => fetch(`${server.url}${route}`, init);
const logs = async () => ((await (await api("/v1/logs")).json()) as { logs: Line[] }).logs;

beforeAll(async () => {
  server = await startServer({ dir: path.join(KIT_DIR, "bot-examples", "pr-approver") });
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

describe("GET /v1/logs", () => {
  it("logs a tool call that returned an error, with its session and turn", async () => {
    const created = await api("/v1/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: 'inspect_pr {"prUrl":"https://github.com/acme/nowhere/pull/999"}' }),
    });
    const { sessionId, turnId } = (await created.json()) as { sessionId: string; turnId: string };
    const events = await readNdjson<{ type: string; data: { isError?: boolean } }>(await api(`/v1/session/${sessionId}/stream`), (event) => event.type === "session.waiting");
    expect(events.find((event) => event.type === "action.result")?.data.isError).toBe(true);

    const line = (await logs()).find((entry) => entry.msg.startsWith("Tool inspect_pr returned an error"));
    expect(line).toMatchObject({ level: "warn", sessionId, turnId, tool: "inspect_pr" });
    expect(line?.msg).toContain("No PR fixture for https://github.com/acme/nowhere/pull/999");
  });

  it("logs a 4xx answer with the session it was about", async () => {
    const missing = "ses_00000000000000000000000000";
    expect((await api(`/v1/session/${missing}`)).status).toBe(404);
    const line = (await logs()).find((entry) => entry.sessionId === missing);
    expect(line).toMatchObject({ level: "warn", status: 404, code: "not_found", route: "getSession" });
    expect(line?.msg).toContain(`GET /v1/session/${missing} → 404`);

  });
});
