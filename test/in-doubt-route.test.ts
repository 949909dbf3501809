/**
 * `POST /v1/session/:id/in-doubt/:toolCallId`: a person clears a write call
 * in doubt. Only the session's owner may (401 without credentials from afar,
 * 403 for another principal), an unknown call is 404, and a cleared call
 * leaves the approvals inbox with an `action.in_doubt_resolved` event.
 */
import { describe, expect, it } from "vitest";
import { bearerPrincipal } from "../server/auth/policies.ts";
import type { AnyBdkEvent } from "../server/protocol/events.ts";
import { serveProject } from "./support/served-project.ts";

const TOKEN = "in-doubt-secret";

const served = serveProject({ "bot/instructions.md": "You take payments." }, { authToken: TOKEN });

/** What recovery leaves after a crash cut a write call off: the ledger row in doubt and its event. */
async function callInDoubt(toolCallId: string): Promise<string> {
  const store = served.handle.agents[0].opened.store;
  const session = await store.sessions.create({ mode: "chat", channel: "http", principal: bearerPrincipal(TOKEN) });
  const turnId = `turn_${toolCallId}`;
  await store.turns.create({ id: turnId, sessionId: session.id, status: "interrupted", message: "pay" });
  const key = { sessionId: session.id, turnId, toolCallId };
  await store.toolCalls.start({ ...key, name: "charge_card", effect: "write", input: { amount: 42 } });
  await store.toolCalls.markInDoubt(key);
  await store.events.append(session.id, [
    { type: "action.in_doubt", turnId, data: { toolCallId, name: "charge_card", input: { amount: 42 }, effect: "write", startedAt: "2026-01-01T00:00:00Z", message: "cut off" } },
  ]);
  return session.id;
}

const resolve = (sessionId: string, toolCallId: string, body: unknown, init: { bearer?: boolean; headers?: Record<string, string> } = { bearer: true }) =>
  served.call(`/v1/session/${sessionId}/in-doubt/${toolCallId}`, { method: "POST", body: JSON.stringify(body), ...init });

const inbox = async () => ((await (await served.call("/v1/approvals", { bearer: true })).json()) as { inDoubt: { toolCallId: string }[] }).inDoubt;

describe("clearing a call in doubt", () => {
  it("lets the owner mark it done, records who did, and takes it out of the inbox", async () => {
    const sessionId = await callInDoubt("call_pay");
    expect((await inbox()).map((row) => row.toolCallId)).toContain("call_pay");

    const answer = await resolve(sessionId, "call_pay", { resolution: "done", note: "charge seen in Stripe" });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ok: true, toolCallId: "call_pay", status: "resolved", resolution: "done" });
    expect((await inbox()).map((row) => row.toolCallId)).not.toContain("call_pay");

    const events = (await (await served.call(`/v1/session/${sessionId}/events`, { bearer: true })).text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as AnyBdkEvent);
    expect(events.at(-1)).toMatchObject({
      type: "action.in_doubt_resolved",
      turnId: "turn_call_pay",
      data: { toolCallId: "call_pay", name: "charge_card", resolution: "done", note: "charge seen in Stripe", by: `service:${bearerPrincipal(TOKEN).id}` },
    });
    // Cleared once: a second answer finds nothing in doubt.
    expect((await resolve(sessionId, "call_pay", { resolution: "not_done" })).status).toBe(404);
  });

  it("answers 401 from afar without credentials, 403 to another principal, 404 for an unknown call, 400 for a bad body", async () => {
    const sessionId = await callInDoubt("call_guarded");
    const remote = await resolve(sessionId, "call_guarded", { resolution: "done" }, { headers: { "x-forwarded-for": "198.51.100.4" } });
    expect(remote.status).toBe(401);
    // The loopback caller is user:local, not the bearer principal that owns the session (no --dev: it sees only its own).
    const other = await resolve(sessionId, "call_guarded", { resolution: "done" }, {});
    expect(other.status).toBe(403);
    expect(((await other.json()) as { error: string }).error).toBe("forbidden");
    const unknown = await resolve(sessionId, "call_nope", { resolution: "done" });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toContain("call_nope");
    expect((await resolve("ses_missing", "call_guarded", { resolution: "done" })).status).toBe(404);
    const bad = await resolve(sessionId, "call_guarded", { resolution: "maybe" });
    expect(bad.status).toBe(400);
    expect((await inbox()).map((row) => row.toolCallId)).toContain("call_guarded");
  });
});
