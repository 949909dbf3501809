/**
 * support-desk, written the way public projects write their tools: one
 * without `effect`, JSON-Schema inputs from a helper, a discriminated union,
 * an MCP-style error envelope, and `bot/hooks/memory.ts = memoryHook()`;
 * through validate, info, run, call, eval and serve.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTempProjects } from "../server/load/testing/temp-project.ts";
import { startServer, type RunningServer } from "./support/bdk-server.ts";
import { fieldProjectWithState, type FieldProject } from "./support/field.ts";

interface RunOutput {
  reply: string;
  toolCalls: { name: string; input: unknown; output: unknown; isError: boolean }[];
  sessionId: string;
}

let project: FieldProject;
let server: RunningServer | undefined;

beforeAll(() => {
  project = fieldProjectWithState("support-desk");
});
afterAll(async () => {
  await server?.stop();
  removeTempProjects();
});

async function run(message: string): Promise<RunOutput> {
  const result = await project.bdk("run", ["--json", "--message", message]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as RunOutput;
}

describe("support-desk", () => {
  it("validate: valid as written", async () => {
    const validated = await project.bdk("validate");
    expect(validated.stdout).toBe("support-desk: valid (0 errors, 0 warnings)\n");
    expect(validated.code).toBe(0);
  });

  it("info: the tool without effect shows as write (default); the generated JSON Schema is what the model gets", async () => {
    const text = await project.bdk("info");
    expect(text.stdout).toMatch(/^ {2}post_reply +write \(default\) +Post a reply/m);
    expect(text.stdout).toMatch(/^ {2}update_ticket +dynamic +Comment on a ticket/m);
    const info = JSON.parse((await project.bdk("info", ["--json"])).stdout) as {
      tools: { name: string; effect: string; effectDefault?: boolean; inputSchema: Record<string, unknown> }[];
    };
    expect(info.tools.map((tool) => [tool.name, tool.effect, tool.effectDefault ?? false])).toEqual([
      ["escalate", "read", false],
      ["post_reply", "write", true],
      ["search_tickets", "read", false],
      ["update_ticket", "dynamic", false],
    ]);
    expect(info.tools.find((tool) => tool.name === "search_tickets")!.inputSchema).toEqual({
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, description: "Words to look for" },
        status: { type: "string", enum: ["open", "closed"], description: "Only tickets in this state" },
        since: { type: "string", format: "date", description: "Only tickets opened on or after this day (YYYY-MM-DD)" },
      },
      required: ["query"],
      additionalProperties: false,
    });
    expect(info.tools.find((tool) => tool.name === "update_ticket")!.inputSchema).toMatchObject({ type: "object", oneOf: [expect.any(Object), expect.any(Object)] });
  });

  it("run: a JSON-Schema input is checked before execute (formats included), naming the field", async () => {
    const bad = await run('search_tickets {"query": "refund", "since": "last week"}');
    expect(bad.toolCalls).toEqual([
      expect.objectContaining({ name: "search_tickets", isError: true, output: 'Invalid input for tool search_tickets: since: must match format "date"' }),
    ]);
    const good = await run('search_tickets {"query": "refund", "since": "2025-01-01"}');
    expect(good.toolCalls[0]).toMatchObject({ isError: false, output: { tickets: [{ id: "T-2", title: "Refund not received for order A-17", status: "open" }] } });
    const union = await run('update_ticket {"action": "comment", "ticketId": "T-1"}');
    expect(union.toolCalls[0]).toMatchObject({ isError: true, output: expect.stringMatching(/^Invalid input for tool update_ticket: text: /) });
  });

  it("run: every turn is journaled to memory/journal.jsonl, which the next session greps from its workspace", async () => {
    const posted = await run('post_reply {"ticketId": "T-2", "text": "Your refund is on its way."}');
    expect(posted.toolCalls[0]).toMatchObject({ isError: false, output: { posted: true, ticketId: "T-2", by: "model", dryRun: false } });
    const journal = readFileSync(path.join(project.stateRoot, "memory", "journal.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(journal.find((record) => record.sessionId === posted.sessionId)).toEqual({
      at: expect.any(String),
      sessionId: posted.sessionId,
      turnId: expect.stringMatching(/^turn_/),
      message: 'post_reply {"ticketId": "T-2", "text": "Your refund is on its way."}',
      reply: posted.reply,
    });
    const recalled = await run('grep {"pattern": "refund is on its way", "path": "memory/journal.jsonl"}');
    expect(recalled.sessionId).not.toBe(posted.sessionId);
    expect(recalled.toolCalls[0]).toMatchObject({ name: "grep", isError: false });
    expect(JSON.stringify(recalled.toolCalls[0].output)).toContain(posted.sessionId);
  });

  it("call: an { content, isError: true } result is an error like a throw (exit 1); a JSON-Schema input is checked", async () => {
    const escalated = await project.bdk("call", ["escalate", "--input", '{"team":"billing"}']);
    expect(escalated.code).toBe(1);
    expect(JSON.parse(escalated.stdout)).toEqual({
      isError: true,
      result: { content: [{ type: "text", text: "No one is on call for billing." }], isError: true, structuredContent: { team: "billing", onCall: [] } },
    });
    const extra = await project.bdk("call", ["search_tickets", "--input", '{"query":"refund","assignee":"sam"}']);
    expect(JSON.parse(extra.stdout)).toEqual({ isError: true, result: "Invalid input for tool search_tickets: assignee: is not allowed" });
    expect(extra.code).toBe(1);
  });

  it("eval: dry runs never execute the tool without effect (it returns { dryRun: true }), and are not journaled", async () => {
    const journalFile = path.join(project.stateRoot, "memory", "journal.jsonl");
    const journalNow = () => (existsSync(journalFile) ? readFileSync(journalFile, "utf8") : "");
    const journalBefore = journalNow();
    const evaluated = await project.bdk("eval", ["--json"]);
    const report = JSON.parse(evaluated.stdout) as { cases: { id: string; verdict: string; sessionId: string }[] };
    expect(report.cases.map((evalCase) => [evalCase.id, evalCase.verdict])).toEqual([
      ["replies", "passed"],
      ["search/bad-date", "passed"],
      ["search/finds", "passed"],
    ]);
    expect(evaluated.code).toBe(0);
    const rehearsal = report.cases.find((evalCase) => evalCase.id === "replies")!.sessionId;
    expect(existsSync(path.join(project.stateRoot, "workspaces", rehearsal))).toBe(true);
    expect(existsSync(path.join(project.stateRoot, "workspaces", rehearsal, "replies.log"))).toBe(false);
    expect(journalNow()).toBe(journalBefore);
  });

  it("serve: /v1/tools shows write (default); POST /v1/tools reports an error envelope and a refused input like a throw", async () => {
    server = await startServer({ dir: project.dir, stateRoot: project.stateRoot, args: ["--no-playground"] });
    const listed = (await (await fetch(`${server.url}/v1/tools`)).json()) as { tools: { name: string; effect: string; effectDefault?: boolean }[] };
    expect(listed.tools.find((tool) => tool.name === "post_reply")).toMatchObject({ effect: "write", effectDefault: true });
    expect(listed.tools.find((tool) => tool.name === "search_tickets")).not.toHaveProperty("effectDefault");
    const call = (name: string, input: unknown) =>
      fetch(`${server!.url}/v1/tools/${name}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ input }) });
    const escalated = await call("escalate", { team: "accounts" });
    expect(escalated.status).toBe(200);
    expect(await escalated.json()).toMatchObject({ ok: true, isError: true, result: { content: [{ type: "text", text: "No one is on call for accounts." }] } });
    expect(await (await call("search_tickets", { query: "" })).json()).toEqual({
      ok: true,
      isError: true,
      result: "Invalid input for tool search_tickets: query: must NOT have fewer than 1 characters",
    });
  }, 120_000);
});
