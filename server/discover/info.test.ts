import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAgent, type LoadResult } from "../load/load-agent.ts";
import { KIT_ROOT, removeTempProjects, tempProject } from "../load/testing/temp-project.ts";
import { DEFAULT_MODEL, projectInfo } from "./info.ts";

let loaded: LoadResult;
const now = new Date("2025-01-06T07:00:00Z"); // a Monday

beforeAll(async () => {
  loaded = await loadAgent(path.join(KIT_ROOT, "bot-examples/kitchen-sink"));
});
afterAll(removeTempProjects);

describe("projectInfo", () => {
  it("is plain JSON (what GET /v1/info returns)", () => {
    const info = projectInfo(loaded.agent!, loaded.diagnostics, now);
    expect(JSON.parse(JSON.stringify(info))).toEqual(info);
  });

  it("shows defineAgent's name as the display name, keeping the project name as the identity", async () => {
    const dir = tempProject({
      "package.json": JSON.stringify({ name: "vat-books" }),
      "bot/instructions.md": "You keep the books.",
      "bot/agent.ts": 'import { defineAgent } from "@cursor/bdk";\nexport default defineAgent({ name: "VAT Books", description: "Bookkeeping" });',
    });
    const named = await loadAgent(dir);
    const info = projectInfo(named.agent!, named.diagnostics, now);
    expect(info).toMatchObject({ name: "vat-books", displayName: "VAT Books", description: "Bookkeeping" });
  });

  it("lists the discovered surface of the kitchen-sink example", () => {
    const info = projectInfo(loaded.agent!, loaded.diagnostics, now);
    expect(info.name).toBe("kitchen-sink");
    expect(info.displayName).toBe("kitchen-sink");
    expect(info.description).toContain("orders and returns");
    expect(info.model).toEqual({ ...DEFAULT_MODEL, isDefault: false });
    expect(info.harnessTools).toEqual(["read", "grep", "glob", "ls", "load_skill", "task"]);
    expect(info.builtinTools).toEqual(["reminders"]);
    expect(info.tools.find((tool) => tool.name === "update_ticket")).toMatchObject({
      execution: "server",
      effect: "dynamic",
      needsApproval: "dynamic",
      source: "authored",
      file: "bot/tools/update_ticket.ts",
      inputSchema: { type: "object", required: ["ticketId", "action", "text"] },
    });
    expect(info.tools.find((tool) => tool.name === "notes__add")).toMatchObject({ source: "extension", effect: "write" });
    expect(info.tools.find((tool) => tool.name === "word_count")).toMatchObject({ execution: "agent" });
    expect(info.skills.map((skill) => skill.name)).toEqual(["incident-review", "release-notes", "triage"]);
    expect(info.skills[0].files).toEqual(["checklist.md"]);
    expect(info.subagents).toMatchObject([{ id: "researcher", file: "bot/subagents/researcher/agent.ts" }]);
    expect(info.extensions).toMatchObject([{ namespace: "notes", extension: "notes", contributes: { tools: ["notes__add"], instructions: true } }]);
    expect(info.channels).toEqual([
      {
        id: "orders",
        routes: [
          {
            method: "POST",
            path: "/v1/channels/orders/question",
            description: "Ask about an order on behalf of a customer.",
            bodySchema: expect.objectContaining({ required: ["customerEmail", "question"] }),
          },
        ],
      },
    ]);
    expect(info.schedules).toEqual([
      { name: "morning-digest", cron: "0 8 * * 1-5", kind: "markdown", nextFireAt: "2025-01-06T08:00:00.000Z" },
      { name: "order-sweep", cron: "*/15 * * * *", kind: "handler", nextFireAt: "2025-01-06T07:15:00.000Z" },
    ]);
    expect(info.reminders.map((reminder) => reminder.name)).toEqual(["follow_up"]);
    expect(info.hooks).toEqual([
      { name: "audit/usage", events: ["turn.completed"] },
      { name: "memory", events: [], memory: { scope: "principal", maxNotes: 10 } },
    ]);
    expect(info.artifacts).toEqual({ kinds: [{ kind: "order-note", description: "A note about an order, kept across sessions.", hasSchema: true }], agentTool: true, max: 200 });
    expect(info.result).toBe(true);
    expect(info.evals.map((evalCase) => evalCase.id)).toEqual(["orders/known", "orders/unknown", "smoke"]);
    expect(info.diagnostics).toEqual([]);
  });

  it("reports the default model, pack channel routes and connections", async () => {
    const dir = tempProject({
      "bot/instructions.md": "x",
      "bot/channels/github.ts": 'import { githubChannel } from "@cursor/bdk/channels/github";\nexport default githubChannel({ botName: "acme-bot" });',
      "bot/host-connections/files.ts": 'import { defineConnection } from "@cursor/bdk/connections";\nexport default defineConnection({ command: "node", args: ["fs.js"] });',
      "bot/mcp-connections/books.ts": 'import { defineConnection } from "@cursor/bdk/connections";\nexport default defineConnection({ agent: "vat-books" });',
    });
    const result = await loadAgent(dir);
    const info = projectInfo(result.agent!, result.diagnostics, now);
    expect(info.model).toEqual({ ...DEFAULT_MODEL, isDefault: true });
    expect(info.channels).toEqual([{ id: "github", pack: "github", routes: [{ method: "POST", path: "/v1/channels/github", description: "github webhook" }] }]);
    expect(info.connections).toEqual([
      { name: "books", scope: "model", kind: "peer", transport: "peer-mcp", target: "vat-books", file: "bot/mcp-connections/books.ts" },
      { name: "files", scope: "host", kind: "stdio", transport: "stdio", target: "node fs.js", file: "bot/host-connections/files.ts" },
    ]);
  });
});
