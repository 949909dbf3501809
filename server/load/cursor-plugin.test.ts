import { afterAll, describe, expect, it } from "vitest";
import { loadAgent } from "./load-agent.ts";
import { removeTempProjects, tempProject } from "./testing/temp-project.ts";

afterAll(removeTempProjects);

const plugin = (prefix: string) => ({
  [`${prefix}/.cursor-plugin/plugin.json`]: JSON.stringify({ name: "notion", description: "Notion pages and search" }),
  [`${prefix}/skills/search/SKILL.md`]: "---\ndescription: How to search the workspace\n---\nUse the search tool first.\n",
  [`${prefix}/skills/search/examples.md`]: "- query: roadmap\n",
  [`${prefix}/agents/writer.md`]: "---\nname: writer\ndescription: Drafts pages\nmodel: scripted\n---\nYou draft Notion pages.\n",
  [`${prefix}/.mcp.json`]: JSON.stringify({
    mcpServers: { pages: { command: "node", args: ["server.mjs"] }, remote: { url: "https://mcp.notion.example/mcp", headers: { Authorization: "Bearer ${NOTION_TOKEN}" } } },
  }),
});

describe("Cursor plugin mounts", () => {
  it("mounts a plugin folder named by cursorPlugin: skills, subagents and MCP servers as <ns>__<name>", async () => {
    const dir = tempProject({
      "bot/instructions.md": "You help with docs.",
      "bot/extensions/notion.ts": 'import { cursorPlugin } from "@cursor/bdk/extensions";\nexport default cursorPlugin("plugins/notion");\n',
      ...plugin("plugins/notion"),
    });
    const { agent, diagnostics } = await loadAgent(dir);
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === "error")).toEqual([]);
    const skill = agent!.skills.find((candidate) => candidate.name === "notion__search");
    expect(skill).toMatchObject({ description: "How to search the workspace", files: { "examples.md": "- query: roadmap\n" } });
    expect(skill!.markdown).toContain("Use the search tool first.");
    expect(agent!.subagents).toMatchObject([{ id: "notion__writer", description: "Drafts pages", instructions: "You draft Notion pages." }]);
    expect(agent!.connections.get("notion__pages")?.definition).toEqual({ command: "node", args: ["server.mjs"], cwd: `${dir}/plugins/notion` });
    expect(agent!.connections.get("notion__remote")?.definition).toMatchObject({ url: "https://mcp.notion.example/mcp" });
    expect(agent!.extensions).toMatchObject([{ namespace: "notion", extension: "cursor-plugin", description: "Notion pages and search" }]);
  });

  it("mounts a plugin copied into bot/extensions/<ns>/ without an index.ts", async () => {
    const dir = tempProject({ "bot/instructions.md": "You help with docs.", ...plugin("bot/extensions/docs") });
    const { agent, diagnostics } = await loadAgent(dir);
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === "error")).toEqual([]);
    expect(agent!.skills.map((skill) => skill.name)).toContain("docs__search");
    expect(agent!.connections.has("docs__pages")).toBe(true);
  });

  it("reports a missing folder or a broken .mcp.json on the extension file", async () => {
    const missing = tempProject({
      "bot/instructions.md": "x",
      "bot/extensions/notion.ts": 'import { cursorPlugin } from "@cursor/bdk/extensions/cursor-plugin";\nexport default cursorPlugin({ path: "plugins/nope" });\n',
    });
    const first = await loadAgent(missing);
    expect(first.diagnostics).toContainEqual(
      expect.objectContaining({ severity: "error", file: "bot/extensions/notion.ts", message: expect.stringContaining("plugins/nope does not exist") }),
    );

    const broken = tempProject({
      "bot/instructions.md": "x",
      "bot/extensions/notion.ts": 'import { cursorPlugin } from "@cursor/bdk/extensions";\nexport default cursorPlugin("plugins/notion");\n',
      "plugins/notion/.mcp.json": '{ "mcpServers": { "pages": { "args": [] } } }',
    });
    const second = await loadAgent(broken);
    expect(second.diagnostics).toContainEqual(
      expect.objectContaining({ severity: "error", message: expect.stringContaining("mcpServers.pages needs a command (stdio) or a url (remote)") }),
    );
  });
});
