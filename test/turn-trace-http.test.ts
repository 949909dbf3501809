/**
 * `GET /v1/session/:id/turns/:turnId/trace`: what each model step was sent
 * and answered, and the tool calls as the ledger checked them, for the
 * session's owner only.
 */
import { describe, expect, it } from "vitest";
import type { TurnTrace } from "../server/protocol/model-calls.ts";
import { ALPHA, as, BETA, curlSession, forkProjectFiles } from "./support/fork-project.ts";
import { serveProject } from "./support/served-project.ts";

const served = serveProject(forkProjectFiles, { authToken: [ALPHA, BETA] });

async function turnOf(sessionId: string): Promise<string> {
  const events = (await (await as(served, ALPHA, `/v1/session/${sessionId}/events`)).text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; turnId?: string });
  return events.find((event) => event.type === "turn.started")!.turnId!;
}

describe("GET /v1/session/:id/turns/:turnId/trace", () => {
  it("returns each step's request (system, messages, tools, params) and response, and the checked tool calls", async () => {
    const { sessionId } = await curlSession(served);
    const turnId = await turnOf(sessionId);
    const answer = await as(served, ALPHA, `/v1/session/${sessionId}/turns/${turnId}/trace`);
    expect(answer.status).toBe(200);
    const trace = (await answer.json()) as TurnTrace & { ok: boolean };
    const [first, second] = trace.modelCalls;
    expect(first.request.system).toContain("You quote prices.");
    expect(first.request.tools.find((tool) => tool.name === "price")).toMatchObject({ description: "Price of a product.", inputSchema: { type: "object" } });
    expect(first.request.params).toMatchObject({ model: "scripted" });
    expect(first.request.messages).toEqual([{ role: "user", content: 'run price {"sku":"A1"}' }]);
    expect(first.response).toMatchObject({ finishReason: "tool-calls", toolCalls: [{ name: "price", input: { sku: "A1" } }] });
    // The second step was sent the first one's call and its result.
    expect(JSON.stringify(second.request.messages)).toContain('"price":42');
    expect(second.response.usage.inputTokens).toBeGreaterThan(0);
    expect(trace.toolCalls).toEqual([expect.objectContaining({ name: "price", effect: "read", input: { sku: "A1" }, status: "finished" })]);
  });

  it("is 403 for another principal and 404 for an unknown session", async () => {
    const { sessionId } = await curlSession(served);
    const turnId = await turnOf(sessionId);
    expect((await as(served, BETA, `/v1/session/${sessionId}/turns/${turnId}/trace`)).status).toBe(403);
    expect((await as(served, ALPHA, `/v1/session/ses_missing/turns/${turnId}/trace`)).status).toBe(404);
  });
});
